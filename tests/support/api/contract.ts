import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The contract check of `/api/v1` (decision 078): one answer against the OpenAPI document. The
 * answer's status must be declared for its operation, its content type must be one the
 * operation declares for that status, and a JSON body (`application/json`,
 * `application/problem+json`) must validate against the declared schema, `$ref`s into
 * `components` resolved, with Ajv's JSON Schema 2020-12 (the dialect of OpenAPI 3.1 and of
 * zod's `toJSONSchema`). An answer for a path the document does not have passes only as the
 * API's not-found (404, or 405 for a method the path lacks).
 */

type MediaType = { schema?: unknown };
type ResponseObject = { content?: Record<string, MediaType> };
type Operation = { responses?: Record<string, ResponseObject> };
export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

export type Answer = {
  method: string;
  /** Relative to `/api/v1`, e.g. `/me/bookings/12`. */ path: string;
  status: number;
  contentType: string | null;
  body: string;
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const DOCUMENT_ID = 'https://gaadi-bazaar.test/api/v1/openapi.json';

/** `~` and `/` escaped for a JSON pointer (RFC 6901). */
const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

const isJsonMediaType = (mediaType: string) => mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);

type Template = { path: string; pattern: RegExp; literalSegments: number };

export class Contract {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Template[];

  constructor(private readonly document: OpenApiDocument) {
    // Not strict: the document carries OpenAPI's own keys (`paths`, `components`…) beside the schemas.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID } as object);
    this.templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(
        `^${path
          .split(/\{[^}]+\}/)
          .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
      literalSegments: path.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
    }));
  }

  /** The document's path for a concrete one: the most specific template that matches (`/me/bookings/{id}`). */
  templateOf(path: string): string | null {
    const matching = this.templates.filter((template) => template.pattern.test(path));
    matching.sort((a, b) => b.literalSegments - a.literalSegments);
    return matching[0]?.path ?? null;
  }

  /** What is wrong with `answer` against the document; empty when it matches. */
  check(answer: Answer): string[] {
    // Node's HTTP parser refuses a request line and headers over its limit before any route runs
    // (no content type, no body): no operation answers it, so no document can declare it.
    if (answer.status === 431 && answer.contentType === null && answer.body === '') return [];
    const method = answer.method.toLowerCase();
    const template = this.templateOf(answer.path);
    const operation = template ? this.document.paths[template]?.[method] : undefined;
    const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
    if (!template || !operation || !METHODS.has(method)) {
      const expected = template ? [404, 405] : [404];
      if (expected.includes(answer.status)) return [];
      return [`${answer.method} ${answer.path} is not in the document, yet it answered ${answer.status}`];
    }
    const where = `${answer.method.toUpperCase()} ${template}`;
    const responses = operation.responses ?? {};
    const status = String(answer.status);
    const declaredStatus = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : 'default' in responses ? 'default' : null;
    if (!declaredStatus) return [`${where} answered ${status}, which the document does not declare (it declares ${Object.keys(responses).join(', ')})`];
    const content = responses[declaredStatus]?.content;
    if (!content || Object.keys(content).length === 0) {
      return answer.body.length === 0 ? [] : [`${where} ${status} has no content in the document, yet the answer has a body (${mediaType})`];
    }
    if (!mediaType || !(mediaType in content)) {
      return [`${where} ${status} answered ${mediaType ?? 'no content type'}; the document declares ${Object.keys(content).join(', ')}`];
    }
    if (method === 'head' || !isJsonMediaType(mediaType) || content[mediaType]?.schema === undefined) return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`${where} ${status} answered ${mediaType} that is not JSON: ${answer.body.slice(0, 200)}`];
    }
    const validate = this.validator(template, method, declaredStatus, mediaType);
    if (validate(body)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((error) => `  ${error.instancePath || '(the body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
    return [`${where} ${status} ${mediaType}: the body does not match the document's schema:\n${errors.join('\n')}\nBody: ${answer.body.slice(0, 500)}`];
  }

  private validator(template: string, method: string, status: string, mediaType: string): ValidateFunction {
    const pointer = ['paths', template, method, 'responses', status, 'content', mediaType, 'schema'].map(pointerPart).join('/');
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}
