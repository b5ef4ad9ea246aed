import { afterAll, afterEach, beforeEach } from 'vitest';
import { beginTest, endTest, errorLogsOfStoppedServers, runningServers } from './server.ts';

/**
 * A setup file of the integration and browser projects: a test fails when a server it started
 * logged an error (pino level >= 50) that the test did not declare with
 * `server.expectErrorLog(/pattern/)`. A 500 the visitor never sees is still a bug.
 */

function unexpectedErrors(): string[] {
  const lines = [...errorLogsOfStoppedServers.splice(0)];
  for (const server of runningServers) lines.push(...server.takeUnexpectedErrorLogs());
  return lines;
}

function failOn(lines: string[], when: string) {
  if (lines.length === 0) return;
  throw new Error(
    `The server logged ${lines.length} unexpected error(s) ${when}. Fix the cause, or declare it with server.expectErrorLog(/pattern/) if the test provokes it on purpose:\n${lines.join('\n')}`,
  );
}

// Errors from beforeAll hooks (server start, seeding) surface at the first test.
beforeEach(() => {
  failOn(unexpectedErrors(), 'before this test');
  beginTest();
});

afterEach(() => {
  try {
    failOn(unexpectedErrors(), 'during this test');
  } finally {
    endTest();
  }
});

afterAll(() => {
  failOn(unexpectedErrors(), 'in afterAll hooks or while stopping');
});
