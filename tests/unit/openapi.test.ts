import { describe, expect, it } from 'vitest';
import { apiV1 } from '../../server/http/app.ts';
import { openApiDocument, openApiPath } from '../../server/http/openapi.ts';
import type { AppServices } from '../../server/services.ts';

/**
 * The OpenAPI document of /api/v1 (decision 072): valid in shape, and complete. The routes are
 * registered with a stand-in for the services (registering one reads none of them), then walked:
 * a new endpoint without `describeRoute` fails here.
 */
const api = apiV1({} as AppServices, () => '');
const document = openApiDocument(api.routes) as ReturnType<typeof openApiDocument> & { paths: Record<string, Record<string, Operation>> };
type Operation = {
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  parameters?: Array<{ name: string; in: string }>;
};

/** Every `$ref` anywhere in `value`, with where it was found. */
function refsIn(value: unknown, at = '#'): Array<{ ref: string; at: string }> {
  if (Array.isArray(value)) return value.flatMap((item, index) => refsIn(item, `${at}/${index}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [{ ref: inner, at }] : refsIn(inner, `${at}/${key}`)));
}

/** What a local `$ref` ('#/components/schemas/X') points at in the document, or undefined. */
function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), document);
}

describe('the /api/v1 OpenAPI document', () => {
  it('is an OpenAPI 3.1 document: info, paths, each operation with its answers', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toBe('1');
    expect(Object.keys(document.paths).length).toBeGreaterThan(15);
    for (const [path, item] of Object.entries(document.paths)) {
      expect(path).toMatch(/^\/[a-z0-9\-/{}.]*$/i);
      for (const [method, operation] of Object.entries(item)) {
        expect(['get', 'post', 'put', 'patch', 'delete'], `${method} ${path}`).toContain(method);
        const statuses = Object.keys(operation.responses ?? {});
        expect(
          statuses.some((status) => /^2\d\d$/.test(status)),
          `${method} ${path} answers a success`,
        ).toBe(true);
        for (const [status, answer] of Object.entries(operation.responses ?? {})) expect(answer.description, `${method} ${path} ${status}`).toBeTruthy();
        // Every path parameter of the template is declared, and only those.
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
        const declared = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name)
          .sort();
        expect(declared, `${method} ${path}`).toEqual(templated);
      }
    }
  });

  it('resolves every $ref', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const { ref, at } of refs) expect(resolve(ref), `${ref} at ${at}`).toBeTruthy();
  });

  it('describes the refusals: 400 with fields, 401 for a session, 403 for the cross-site check, 429 with Retry-After', () => {
    const booking = document.paths['/rentals/bookings']!.post!;
    expect(Object.keys(booking.responses!)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '422', '429', '503']));
    expect(JSON.stringify(booking.responses!['429'])).toContain('Retry-After');
    expect(document.components.schemas.Problem).toMatchObject({
      required: ['type', 'title', 'status', 'detail'],
      properties: { fields: expect.any(Object), reason: expect.any(Object) },
    });
    // Every refusal of every operation is a problem, and nothing else.
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        for (const [status, answer] of Object.entries(operation.responses ?? {}))
          if (Number(status) >= 400) expect(Object.keys(answer.content ?? {}), `${method} ${path} ${status}`).toEqual(['application/problem+json']);
    expect(document.paths['/vehicles']!.get!.responses!['401']).toBeUndefined();
    expect(document.paths['/vehicles']!.get!.parameters!.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['q', 'budget', 'fuel', 'sort', 'page', 'perPage']),
    );
  });

  it('describes every route of the API', () => {
    const routes = api.routes.filter((route) => route.method !== 'ALL');
    expect(routes.length).toBeGreaterThan(15);
    const missing = routes
      .filter((route) => !document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    // And nothing is described that is not served.
    const served = new Set(routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`));
    const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(described.filter((operation) => !served.has(operation))).toEqual([]);
  });
});
