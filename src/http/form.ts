import type { Context } from 'hono';
import type { ZodError, ZodType, z } from 'zod';
import { AppError } from './errors';

/** A form's fields as strings, as the browser sent them (re-rendered into the form on errors). */
export type FormValues = Record<string, string>;

/** One message per field name; issues without a field are under 'form'. */
export type FieldErrors = Record<string, string>;

/** A checked form: typed data, or the messages to show beside its fields. Both keep the values sent. */
export type FormResult<T> =
  | { ok: true; data: T; values: FormValues }
  | { ok: false; errors: FieldErrors; values: FormValues };

/** The request's form fields as strings (files ignored). */
export async function formValues(c: Context): Promise<FormValues> {
  const body = await c.req.parseBody();
  const values: FormValues = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') values[name] = value;
  return values;
}

/** The first message of each field of a zod error ('form' for an issue that names no field). */
export function fieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return errors;
}

/** Checks form values with a zod schema. */
export function checkForm<S extends ZodType>(schema: S, values: FormValues): FormResult<z.output<S>> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data, values };
  return { ok: false, errors: fieldErrors(parsed.error), values };
}

/** Reads the request's form and checks it with a zod schema: typed data, or field errors. */
export async function readForm<S extends ZodType>(c: Context, schema: S): Promise<FormResult<z.output<S>>> {
  return checkForm(schema, await formValues(c));
}

/** A submitted form: saved (with its data and the save's result), or not, with the errors to show. */
export type Submitted<T, R> =
  | { ok: true; data: T; result: R; values: FormValues }
  | { ok: false; errors: FieldErrors; values: FormValues };

/** Which field a refusal belongs to: by status (`{ 409: 'email' }`) or by a function; undefined → not the user's to fix. */
export type FieldOfError = Partial<Record<number, string>> | ((err: AppError) => string | undefined);

/**
 * Reads and checks a form, then saves valid data. A refusal the user can fix (an AppError that `asFieldError` maps
 * to a field) becomes that field's error, its headers (Retry-After) kept on the answer; anything else is thrown.
 */
export async function submitForm<S extends ZodType, R>(
  c: Context,
  schema: S,
  save: (data: z.output<S>) => Promise<R>,
  asFieldError: FieldOfError = {},
): Promise<Submitted<z.output<S>, R>> {
  const form = await readForm(c, schema);
  if (!form.ok) return form;
  try {
    return { ...form, result: await save(form.data) };
  } catch (err) {
    const field = !(err instanceof AppError)
      ? undefined
      : typeof asFieldError === 'function'
        ? asFieldError(err)
        : asFieldError[err.status];
    if (!(err instanceof AppError) || !field) throw err;
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return { ok: false, errors: { [field]: err.message }, values: form.values };
  }
}
