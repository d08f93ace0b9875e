import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPreferences } from '../../src/db/schema';
import { reportRecipients } from '../../src/reports/service';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health report recipients', () => {
  it('carry the timezone the app shows them in: the saved one, else the sign-in default (not UTC)', async () => {
    await createSignedInUser(t.db, { role: 'admin', email: 'a-default@example.com' });
    const perth = await createSignedInUser(t.db, { role: 'admin', email: 'b-perth@example.com' });
    await t.db.insert(userPreferences).values({ userId: perth.id, timezone: 'Australia/Perth' });
    const zones = (await reportRecipients(t.db)).map((r) => [r.email, r.timezone]);
    expect(zones).toEqual([
      ['a-default@example.com', 'Australia/Sydney'],
      ['b-perth@example.com', 'Australia/Perth'],
    ]);
  });
});
