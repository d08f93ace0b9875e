import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstStartNotice } from '../../src/admin/first-start';
import type { Database } from '../../src/db/client';
import { createTestDatabase } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('the first-start notice (issue 20)', () => {
  it('on an empty database: the first account becomes the admin, with the URL to open; gone once an account exists', async () => {
    const config = { appUrl: 'http://localhost:3000', smtpUrl: undefined };
    expect(await firstStartNotice(database.db, config)).toBe(
      'No accounts yet: the first account to register becomes the admin. Open http://localhost:3000/register to create it. SMTP_URL is not set, so its verification link will be logged here.',
    );
    expect(await firstStartNotice(database.db, { ...config, smtpUrl: 'smtp://127.0.0.1:2525' })).toBe(
      'No accounts yet: the first account to register becomes the admin. Open http://localhost:3000/register to create it.',
    );
    await createSignedInUser(database.db, { role: 'admin' });
    expect(await firstStartNotice(database.db, config)).toBeNull();
  });
});
