import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { apiV1 } from '../../server/http/app.ts';
import { openApiDocument } from '../../server/http/openapi.ts';
import type { AppServices } from '../../server/services.ts';

/**
 * The document /api/v1/openapi.json serves passes a maintained OpenAPI linter (Redocly's, with
 * the rules of redocly.yaml at the repository's root) with no errors and no warnings.
 */
describe('the /api/v1 OpenAPI document, linted', () => {
  it('has no problem Redocly’s recommended rules find', async () => {
    const document = openApiDocument(apiV1({} as AppServices, () => '').routes);
    const config = await loadConfig({ configPath: fileURLToPath(new URL('../../redocly.yaml', import.meta.url)) });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const found = problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`);
    expect(found).toEqual([]);
  }, 30_000);
});
