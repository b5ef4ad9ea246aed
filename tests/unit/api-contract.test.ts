import { describe, expect, test } from 'vitest';
import { Contract, type OpenApiDocument } from '../support/api/contract.ts';

/**
 * The contract check of the API tests (tests/support/api/contract.ts, decision 078) refuses what
 * it must: an undeclared status, an undeclared content type, a body off its schema (through a
 * `$ref` into components), and an answer from a path the document lacks.
 */

const document: OpenApiDocument = {
  openapi: '3.1.1',
  paths: {
    '/cars/{id}': {
      get: {
        responses: {
          200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Car' } } } },
          404: { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
    '/cars/mine': { get: { responses: { 204: {} } } },
  },
  components: {
    schemas: {
      Car: {
        type: 'object',
        properties: { id: { type: 'integer' }, price: { type: 'integer' }, seenAt: { type: 'string', format: 'date-time' } },
        required: ['id', 'price'],
        additionalProperties: false,
      },
      Problem: { type: 'object', properties: { status: { type: 'integer' }, detail: { type: 'string' } }, required: ['status', 'detail'] },
    },
  },
};
const contract = new Contract(document);
const car = (body: unknown, status = 200, contentType: string | null = 'application/json; charset=UTF-8') =>
  contract.check({ method: 'GET', path: '/cars/7', status, contentType, body: JSON.stringify(body) });

describe('the API contract check', () => {
  test('passes an answer that matches, its schema reached through a $ref', () => {
    expect(car({ id: 7, price: 450000, seenAt: '2026-11-27T10:00:00+05:30' })).toEqual([]);
    expect(car({ status: 404, detail: 'No such car.' }, 404, 'application/problem+json')).toEqual([]);
    expect(contract.check({ method: 'GET', path: '/cars/mine', status: 204, contentType: null, body: '' })).toEqual([]);
  });

  test('refuses a body off its schema: a missing key, a wrong type, an undocumented key, a bad format', () => {
    expect(car({ id: 7 }).join()).toMatch(/must have required property 'price'/);
    expect(car({ id: 7, price: '4,50,000' }).join()).toMatch(/\/price must be integer/);
    expect(car({ id: 7, price: 1, colour: 'red' }).join()).toMatch(/must NOT have additional properties/);
    expect(car({ id: 7, price: 1, seenAt: 'yesterday' }).join()).toMatch(/\/seenAt must match format "date-time"/);
    expect(contract.check({ method: 'GET', path: '/cars/7', status: 200, contentType: 'application/json', body: '<html>' }).join()).toMatch(/not JSON/);
  });

  test('refuses an undeclared status or content type, and a body where none is declared', () => {
    expect(car({ error: 'x' }, 500).join()).toMatch(/answered 500, which the document does not declare/);
    expect(car({ status: 404, detail: 'x' }, 404, 'application/json').join()).toMatch(
      /answered application\/json; the document declares application\/problem\+json/,
    );
    expect(car({ id: 7, price: 1 }, 200, null).join()).toMatch(/no content type/);
    expect(contract.check({ method: 'GET', path: '/cars/mine', status: 204, contentType: 'text/plain', body: 'hi' }).join()).toMatch(
      /has no content in the document/,
    );
  });

  test('prefers the literal path over a template, and takes only not-found from a path or method the document lacks', () => {
    expect(contract.templateOf('/cars/mine')).toBe('/cars/mine');
    expect(contract.templateOf('/cars/12')).toBe('/cars/{id}');
    expect(contract.templateOf('/cars/12/photos')).toBeNull();
    expect(contract.check({ method: 'GET', path: '/trucks', status: 404, contentType: 'application/json', body: '{}' })).toEqual([]);
    expect(contract.check({ method: 'GET', path: '/trucks', status: 200, contentType: 'application/json', body: '{}' }).join()).toMatch(/not in the document/);
    expect(contract.check({ method: 'DELETE', path: '/cars/7', status: 405, contentType: 'application/json', body: '{}' })).toEqual([]);
    expect(contract.check({ method: 'DELETE', path: '/cars/7', status: 200, contentType: 'application/json', body: '{}' }).join()).toMatch(
      /not in the document/,
    );
  });
});
