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

/** What was typed in a form's text fields (the first value of each), to show again beside its messages; passwords are never sent back. */
export function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === 'string' && !(name in values) && !/password/i.test(name)) values[name] = value;
  return values;
}

/**
 * A page's form read by its schema (decision 109): the text fields only (a file in a text
 * field's place counts as not sent), with what was typed to show again (typedValues).
 */
export function parseForm<Schema extends z.ZodType>(schema: Schema, form: FormData): Parsed<z.output<Schema>> & { values: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === 'string' && !(name in fields)) fields[name] = value;
  return { ...parseWith(schema, fields), values: typedValues(form) };
}
