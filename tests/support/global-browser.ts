import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from './browser.ts';

/**
 * One Chromium for the whole browser project: each test file connects to it and opens its own
 * contexts (cookies, storage and pages apart, as in a browser of its own), instead of starting
 * a Chromium per file, which cost about 2 CPU-seconds each (decision 037).
 */
export default async function setup(project: TestProject) {
  const server = await launchChromiumServer();
  (project.provide as (key: string, value: unknown) => void)('browserEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
