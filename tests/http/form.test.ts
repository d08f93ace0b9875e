import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../src/http/errors';
import { checkForm, fieldErrors, readForm, submitForm } from '../../src/http/form';

const schema = z
  .object({
    name: z.string().trim().min(1, 'Name is required'),
    age: z.coerce.number().int('Whole years').min(0, 'Too young'),
  })
  .refine((v) => v.name !== 'nobody', { message: 'Not a name' });

/** A route that answers what readForm made of the posted form. */
function echo() {
  const app = new Hono();
  app.post('/', async (c) => c.json(await readForm(c, schema)));
  return app;
}

describe('readForm', () => {
  it('gives typed data and the values sent when the form is valid', async () => {
    const res = await echo().request('/', { method: 'POST', body: new URLSearchParams({ name: ' Ada ', age: '36' }) });
    expect(await res.json()).toEqual({
      ok: true,
      data: { name: 'Ada', age: 36 },
      values: { name: ' Ada ', age: '36' },
    });
  });

  it('gives the first message of each field and keeps the values to show again', async () => {
    const res = await echo().request('/', { method: 'POST', body: new URLSearchParams({ name: '', age: '-1.5' }) });
    expect(await res.json()).toEqual({
      ok: false,
      errors: { name: 'Name is required', age: 'Whole years' },
      values: { name: '', age: '-1.5' },
    });
  });

  it('ignores files (multipart forms)', async () => {
    const body = new FormData();
    body.set('name', 'Grace');
    body.set('age', '40');
    body.set('avatar', new File(['x'], 'a.png', { type: 'image/png' }));
    const res = await echo().request('/', { method: 'POST', body });
    expect((await res.json()).values).toEqual({ name: 'Grace', age: '40' });
  });
});

describe('fieldErrors', () => {
  it("puts an issue that names no field under 'form'", () => {
    const r = checkForm(schema, { name: 'nobody', age: '1' });
    expect(r).toEqual({ ok: false, errors: { form: 'Not a name' }, values: { name: 'nobody', age: '1' } });
  });

  it('maps a zod error directly', () => {
    const parsed = z.object({ a: z.string(), b: z.object({ c: z.string('C!') }) }).safeParse({ a: 1, b: {} });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(fieldErrors(parsed.error)).toEqual({ a: expect.any(String), b: 'C!' });
  });
});

describe('submitForm', () => {
  /** A route that saves through `save` and answers what submitForm made of it. */
  function saving(save: (data: { name: string; age: number }) => Promise<string>) {
    const app = new Hono();
    app.post('/', async (c) => c.json(await submitForm(c, schema, save, { 409: 'name', 429: 'form' })));
    app.onError((err, c) => c.json({ thrown: err.message }, 500));
    return app;
  }
  const post = (app: Hono, fields: Record<string, string>) =>
    app.request('/', { method: 'POST', body: new URLSearchParams(fields) });

  it('saves valid data and gives the result beside the data', async () => {
    const res = await post(
      saving(async (d) => `saved ${d.name}`),
      { name: 'Ada', age: '36' },
    );
    expect(await res.json()).toEqual({
      ok: true,
      data: { name: 'Ada', age: 36 },
      result: 'saved Ada',
      values: { name: 'Ada', age: '36' },
    });
  });

  it('does not save an invalid form', async () => {
    let saved = false;
    const res = await post(
      saving(async () => {
        saved = true;
        return 'x';
      }),
      { name: '', age: '1' },
    );
    expect((await res.json()).errors).toEqual({ name: 'Name is required' });
    expect(saved).toBe(false);
  });

  it("turns a fixable refusal into its field's error and keeps its headers", async () => {
    const conflict = await post(
      saving(async () => Promise.reject(new AppError(409, 'That name is taken.'))),
      { name: 'Ada', age: '1' },
    );
    expect(await conflict.json()).toEqual({
      ok: false,
      errors: { name: 'That name is taken.' },
      values: { name: 'Ada', age: '1' },
    });
    const throttled = await post(
      saving(async () => Promise.reject(new AppError(429, 'Slow down.', undefined, { 'Retry-After': '60' }))),
      { name: 'Ada', age: '1' },
    );
    expect(throttled.headers.get('Retry-After')).toBe('60');
    expect((await throttled.json()).errors).toEqual({ form: 'Slow down.' });
  });

  it('throws any other failure', async () => {
    const res = await post(
      saving(async () => Promise.reject(new AppError(403, 'No.'))),
      { name: 'Ada', age: '1' },
    );
    expect(await res.json()).toEqual({ thrown: 'No.' });
  });
});
