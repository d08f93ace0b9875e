import { expect } from 'vitest';
import { jsonRequest, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';

/** Calls of the review workflow's tests: the app as a user, JSON in and out. */
export const caller = (t: () => TestContext) => ({
  req: (who: TestUser | null, method: string, path: string, body?: unknown) =>
    t().app.request(path, jsonRequest(method, body, who?.cookie)),
  async json<T = Record<string, unknown>>(
    who: TestUser | null,
    method: string,
    path: string,
    body?: unknown,
    status = 200,
  ): Promise<T> {
    const res = await t().app.request(path, jsonRequest(method, body, who?.cookie));
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  },
});
