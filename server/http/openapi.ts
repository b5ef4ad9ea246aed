import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
// The answers' schemas register their ids with zod's global registry, read below.
import './api-answers.ts';
import { SESSION_COOKIE_NAME } from '../auth/session-cookie.ts';

/**
 * The OpenAPI 3.1 document of `/api/v1` (decision 072), made from the routes themselves: each
 * route names its description with `describeRoute(...)` as its first handler, and
 * `openApiDocument(api.routes)` collects them, so a route and its description sit side by side
 * and a route without one is missing from the document (a test walks the routes for that).
 * Schemas are zod's own JSON Schema (`z.toJSONSchema`): inputs as the schema accepts them
 * (`io: 'input'`), answers from app/lib/schemas/api-answers.ts.
 */

/** The refusals a route may answer besides 401 and 403, which `auth` and the method imply. */
type Refusal = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 502 | 503;

export type RouteDoc = {
  summary: string;
  description?: string;
  tag: 'Catalogue' | 'Account' | 'Leads' | 'Selling' | 'Test drives' | 'Rentals' | 'Reservations' | 'Payments' | 'Document' | 'Desk';
  /**
   * `true`: needs the signed-in person's session or the app's token (401 without one). `'desk'`:
   * an admin's site session only (decision 120): 401 without one or with a bearer token, 403 for
   * an account that is not an admin.
   */
  auth?: boolean | 'desk';
  /** The query string, as an object schema (read as its input). */
  query?: z.ZodType;
  /** Each path parameter, with what it is: an id (a positive integer), or `{ description, type: 'string' }`. */
  params?: Record<string, string | { description: string; type: 'string' }>;
  /** The body: JSON (`json`), JSON or a urlencoded form (`form`), or a multipart upload (files as `z.file()`). */
  body?: { kind: 'json' | 'form' | 'multipart'; schema: z.ZodType };
  /** The success: its status and the answer's schema (from app/lib/schemas/api-answers.ts). */
  /** `mediaType`: a file instead of JSON (a PDF), its schema then ignored. */
  ok: { status: 200 | 201; schema: z.ZodType; description: string; headers?: Record<string, string>; mediaType?: 'application/pdf' };
  refusals?: Partial<Record<Refusal, string>>;
};

const DOC = Symbol('route description');
type Described = MiddlewareHandler & { [DOC]: RouteDoc };

/** A route's description, as the first handler of its route: it passes on and is read by `openApiDocument`. */
export function describeRoute(doc: RouteDoc): MiddlewareHandler {
  const middleware: MiddlewareHandler = (_c, next) => next();
  return Object.assign(middleware, { [DOC]: doc });
}

function docOf(handler: unknown): RouteDoc | null {
  return typeof handler === 'function' && DOC in handler ? (handler as Described)[DOC] : null;
}

/**
 * The name a generated client gives the operation, from its method and path, so it never has
 * to be typed: `GET /me/bookings/{id}/cancel` is `getMeBookingsByIdCancel`. Stable as long as
 * the path is, which v1 promises.
 */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith('{') ? ['by', segment.slice(1, -1)] : segment.split(/[-.]/)));
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** Hono's `/me/bookings/:id` as OpenAPI writes it: `/me/bookings/{id}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** zod's JSON Schema without the keys that belong to a stand-alone document. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

const componentRef = (id: string) => `#/components/schemas/${id}`;
/** A schema with an `id` (its `.meta`) by reference, any other inline. */
function answerSchema(schema: z.ZodType): Record<string, unknown> {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? { $ref: componentRef(id) } : jsonSchema(schema, 'output');
}

const problemContent = { 'application/problem+json': { schema: { $ref: componentRef('Problem') } } };
const retryAfter = { 'Retry-After': { description: 'Seconds until the next attempt is allowed.', schema: { type: 'integer' } } };
/** Every answer carries it (server/http/request-id.ts, decision 111). */
const requestIdHeader = {
  'X-Request-Id': {
    description:
      'This request’s id: the one a trusted proxy in front of the site sent, else a new one. Problems repeat it as `instance` (`urn:request:{id}`); quote it when reporting a fault.',
    schema: { type: 'string', maxLength: 128 },
  },
};

const REFUSALS: Record<Refusal, string> = {
  400: 'The input was refused: `detail` says why, `fields` names each invalid field.',
  401: 'The credentials were refused.',
  403: 'Refused: `detail` says why, `reason` names it.',
  404: 'Not found (or not yours).',
  409: 'The change conflicts with the current state (taken meanwhile, already cancelled…).',
  413: 'The upload is too large.',
  422: 'Understood but not allowed yet: `reason` names the step the person must finish first.',
  429: 'Too many attempts: try again after `Retry-After` seconds.',
  502: 'The payment provider did not answer; try again later.',
  503: 'The database or storage is unreachable, or the site is in maintenance; try again after `Retry-After` seconds.',
};

function operation(method: string, path: string, doc: RouteDoc) {
  const mutation = method !== 'get';
  const parameters: unknown[] = Object.entries(doc.params ?? {}).map(([name, param]) =>
    typeof param === 'string'
      ? { name, in: 'path', required: true, description: param, schema: { type: 'integer', minimum: 1 } }
      : { name, in: 'path', required: true, description: param.description, schema: { type: 'string' } },
  );
  if (doc.query) {
    const query = jsonSchema(doc.query, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: rest,
        style: 'form',
        explode: true,
      });
    }
  }
  const responses: Record<string, unknown> = {
    [doc.ok.status]: {
      description: doc.ok.description,
      content:
        doc.ok.mediaType === undefined
          ? { 'application/json': { schema: answerSchema(doc.ok.schema) } }
          : { [doc.ok.mediaType]: { schema: { type: 'string', format: 'binary' } } },
      ...(doc.ok.headers
        ? { headers: Object.fromEntries(Object.entries(doc.ok.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
        : {}),
    },
  };
  if (doc.auth === 'desk') {
    responses[401] = {
      description: "Not signed in to the admin panel: no session cookie, an expired or forged one, or a bearer token (the app's tokens never reach the desk).",
      content: problemContent,
    };
    responses[403] = { description: 'Signed in, but not as an admin.', content: problemContent };
  } else if (doc.auth)
    responses[401] = { description: 'Not signed in: no bearer token or session cookie, or an expired, revoked or forged one.', content: problemContent };
  if (mutation)
    responses[403] = {
      description: `${doc.auth === 'desk' ? 'Signed in, but not as an admin; or refused' : 'Refused'} by the cross-site request check: the request carried no \`Origin\` equal to the site origin (nor \`Sec-Fetch-Site: same-origin\`), and was not one with a bearer token and no cookie.`,
      content: problemContent,
    };
  // The edge refuses any body over the path's limit (server/http/body-limit.ts) before the route reads it.
  if (doc.body) responses[413] = { description: 'The body is over this operation’s size limit.', content: problemContent };
  const refusals = { ...doc.refusals, 503: doc.refusals?.[503] ?? REFUSALS[503] };
  // Any operation may fail unexpectedly; the answer is a problem like every other.
  responses[500] = { description: 'Something failed on our side (it is logged); try again in a moment.', content: problemContent };
  for (const [status, description] of Object.entries(refusals) as Array<[string, string]>) {
    const code = Number(status) as Refusal;
    // A route's own 403 (a failed bot check, a forged signature) says so beside the cross-site check's.
    if (code === 403 && mutation) {
      responses[status] = {
        description: `${description || REFUSALS[code]} Or the cross-site request check refused it (no \`Origin\` equal to the site origin).`,
        content: problemContent,
      };
      continue;
    }
    responses[status] = {
      description: description || REFUSALS[code],
      content: problemContent,
      ...(code === 429 || code === 503 ? { headers: retryAfter } : {}),
    };
  }
  // Every answer, success or problem, names the request.
  for (const response of Object.values(responses) as Array<{ headers?: Record<string, unknown> }>)
    response.headers = { ...requestIdHeader, ...response.headers };
  const body = doc.body && {
    required: true,
    content:
      doc.body.kind === 'multipart'
        ? { 'multipart/form-data': { schema: jsonSchema(doc.body.schema, 'input') } }
        : {
            'application/json': { schema: jsonSchema(doc.body.schema, 'input') },
            ...(doc.body.kind === 'form' ? { 'application/x-www-form-urlencoded': { schema: jsonSchema(doc.body.schema, 'input') } } : {}),
          },
  };
  return {
    operationId: operationId(method, path),
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    // Either the app's bearer token or the site's session cookie (decision 074).
    ...(doc.auth === 'desk' ? { security: [{ sessionCookie: [] }] } : doc.auth ? { security: [{ bearerToken: [] }, { sessionCookie: [] }] } : { security: [] }),
    responses,
  };
}

const DESCRIPTION = `The JSON API of the Android app (and the site's own scripts). It calls the same services as the pages. The rules below hold for every operation; docs/api.md in the repository says the same.

**Signing in.** The app signs in with \`POST /auth/sign-in\` (or \`/auth/sign-up\`, \`/auth/google\`, \`/auth/verify-email\`) and sends the token it gets back as \`Authorization: Bearer <token>\` on every request under /api/v1, and nowhere else: pages and the admin panel refuse a bearer token (401). A token lasts 30 days from its last renewal (a day of use moves it on); signing out, revoking the device (\`DELETE /me/devices/{id}\`) or deleting the account stops it at once. The site's own scripts send the session cookie instead. Operations with \`bearerToken\` or \`sessionCookie\` answer 401 without either.

**Mutations (POST, DELETE).** A request with a bearer token and no cookie needs nothing more. Any other must carry \`Origin\` equal to the site's origin (browsers send it; the app sets it on sign-in and sign-up, before it has a token), or \`Sec-Fetch-Site: same-origin\`; anything else is refused with 403 before the route runs. Bodies are JSON unless the operation says otherwise; text with control characters is refused (400).

**Errors.** Every 4xx and 5xx answer, from any operation and from the checks before it (cross-site 403, body size 413, slow body 408, maintenance and outage 503, unexpected 500, unknown path 404, wrong method 405 with \`Allow\`), is \`application/problem+json\` (RFC 9457, schema \`Problem\`): \`type\`, \`title\`, \`status\`, \`detail\` (the sentence to show the person), \`fields\` (the message per invalid input, on 400), \`reason\` (a stable word to branch on, such as \`licence-pending\`) and \`instance\` (\`urn:request:{id}\`). Branch on \`status\` and \`reason\`, never on the wording of \`detail\`.

**Request ids.** Every answer carries \`X-Request-Id\`, the id under which the server logged the request (and the jobs it queued); a problem repeats it as \`instance\`. Quote it when reporting a fault. An id the app sends is not kept: only the site's own proxy may set it.

**Paging.** A list that can grow answers \`{ items, page, perPage, total }\`: \`page\` counts from 1 and \`total\` counts every item of the query. The catalogue (\`/vehicles\`) takes \`perPage\` up to 100 (a larger value falls back to the dealer's page size) and adds \`pageCount\` and its facets; my wishlist, my bookings, my test drives and the rental fleet take \`perPage\` up to 50, 20 when not given (a larger value is served as 50). Short lists that cannot grow much (categories, a car's free slots) answer whole.

**Money.** Whole rupees as integers (no paise, no strings), except Razorpay Checkout's \`amount\`, which is paise as Checkout takes it and says so. A price the dealer typed as text is also given as such beside its number.

**Times.** Answers give ISO 8601 date-times with the India offset (\`2026-12-01T10:00:00+05:30\`); times sent in are India time written \`2026-12-01T10:00\`; dates are \`YYYY-MM-DD\`.

**Rate limits.** An operation that limits attempts answers 429 with \`Retry-After\` (seconds); 503 carries it too.

**Versioning.** Within v1 changes are additive only: new operations, new optional inputs, new keys in answers, new \`reason\` words. Nothing is renamed, removed or retyped, and no optional input becomes required; such a change is a new version (\`/api/v2\`), served beside v1 while apps still call it. Clients ignore keys they do not know.`;

type RouteEntry = { method: string; path: string; handler: unknown };

/** The document for the described routes of the API Hono instance (paths relative to `/api/v1`). */
export function openApiDocument(routes: readonly RouteEntry[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const doc = docOf(route.handler);
    if (!doc) continue;
    const method = route.method.toLowerCase();
    (paths[openApiPath(route.path)] ??= {})[method] = operation(method, openApiPath(route.path), doc);
  }
  const { schemas } = z.toJSONSchema(z.globalRegistry, { uri: componentRef, unrepresentable: 'any' });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
  return {
    openapi: '3.1.1',
    info: { title: 'Gaadi Bazaar app API', version: '1', description: DESCRIPTION },
    servers: [{ url: '/api/v1' }],
    tags: [
      { name: 'Catalogue', description: 'The used cars for sale: the listing with its filters and counts, one car, the categories.' },
      {
        name: 'Account',
        description:
          "Signing up, in and out (the app's bearer token), and the signed-in person's own account: profile, phone verification, wishlist, devices, their data, deleting the account.",
      },
      { name: 'Leads', description: 'Request a car, offer your car: open to everyone, as the pages are.' },
      { name: 'Selling', description: 'Selling one’s car to the dealer: the instant estimate and the inspection (India time).' },
      { name: 'Reservations', description: 'Reserving a car for sale with a refundable token, paid through Razorpay Checkout.' },
      { name: 'Test drives', description: 'Free slots, booking, and changing one’s own test drives (India time).' },
      { name: 'Rentals', description: 'Self-drive rental: the fleet, quotes, availability, bookings, payment, the driving licence.' },
      {
        name: 'Payments',
        description: "Razorpay's signed webhook: Razorpay, not an app, calls it; each payment goes to what was paid for (a rental booking, a reservation).",
      },
      { name: 'Document', description: 'This OpenAPI document.' },
    ],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token from POST /auth/sign-in, /auth/sign-up, /auth/google or /auth/verify-email (better-auth’s session token, signed). Accepted under /api/v1 only.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE_NAME,
          description: `The better-auth session cookie (\`__Secure-${SESSION_COOKIE_NAME}\` over HTTPS), set by signing in at /api/auth.`,
        },
      },
    },
  };
}
