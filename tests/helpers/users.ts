import type { Role } from '../../src/auth/policy';
import { randomBytes } from 'node:crypto';
import { createSession } from '../../src/auth/sessions';
import type { Db } from '../../src/db/client';
import { users } from '../../src/db/schema';
import { sessionCookieName } from '../../src/http/session';

export interface TestUser {
  id: string;
  email: string;
  cookie: string;
}

/**
 * Creates an active, verified user and a real session for it (tests only: no route fakes sign-in).
 * Returns the Cookie header value to send.
 */
export async function createSignedInUser(
  db: Db,
  opts: { role?: Role; email?: string; firstName?: string; lastName?: string; secure?: boolean } = {},
): Promise<TestUser> {
  const email = opts.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const [user] = await db
    .insert(users)
    .values({
      email,
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? 'User',
      role: opts.role ?? 'editor',
      isEmailVerified: true,
      accountStatus: 'active',
    })
    .returning();
  const { token } = await createSession(db, user.id);
  return { id: user.id, email, cookie: `${sessionCookieName(!!opts.secure)}=${token}` };
}
