import type { z } from 'zod';
import { formsText as t } from './i18n/forms.ts';

/**
 * The one shape a refused form or JSON body is answered with: the sentence to show, and the
 * message per field to mark. Page actions return it, `/api/v1` answers it as JSON, and both
 * make it from the same zod schema (decision 048).
 */
export type FormErrors = { error: string; fields: Record<string, string> };

/** A refusal with a message and, optionally, the fields to mark. */
export function formError(error: string, fields: Record<string, string> = {}): FormErrors {
  return { error, fields };
}

/** An answer that refuses nothing (an action that shows a result on the same page). */
export function noFormErrors(): { error: null; fields: Record<string, string> } {
  return { error: null, fields: {} };
}

/** The first message per field (a field is the first element of an issue's path); the first message overall leads. */
export function zodFormErrors(error: z.ZodError): FormErrors {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (field !== undefined && fields[String(field)] === undefined) fields[String(field)] = issue.message;
  }
  return { error: error.issues[0]?.message ?? t('checkInput'), fields };
}

export type Parsed<T> = { ok: true; value: T } | ({ ok: false } & FormErrors);

/** Parses outside input with a schema: the value, or the form errors to answer with. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): Parsed<z.output<Schema>> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, ...zodFormErrors(result.error) };
}
