import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP, generateTOTP } from '@oslojs/otp';
import { and, eq, like } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { mailOutbox } from '../../src/db/schema';
import { jsonRequest, type TestContext } from '../helpers/app';
import { login, PASSWORD, sessionCookie } from './helpers';

/** The authenticator app's code now (what a phone shows), from the secret the set-up gave. */
export const currentCode = (secret: string) => generateTOTP(decodeBase32IgnorePadding(secret), 30, 6);

/** The code of the next 30-second step (what the phone shows a moment later; accepted as clock drift). */
export const nextCode = (secret: string) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + 1), 6);

export const post = (t: TestContext, path: string, body: unknown, cookie?: string, ip = '198.51.100.7') =>
  t.app.request(path, jsonRequest('POST', body, cookie), { incoming: { socket: { remoteAddress: ip } } });

/** A six-digit code that is not this one. */
export const wrongCode = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

export const get = (t: TestContext, path: string, cookie?: string) =>
  t.app.request(path, { headers: cookie ? { Cookie: cookie } : {} });

/** Turns two-factor sign-in on through the API for a signed-in cookie; its secret and recovery codes. */
export async function enrol(t: TestContext, cookie: string) {
  const setup = await post(t, '/api/me/two-factor/setup', {}, cookie);
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status}`);
  const { secret } = (await setup.json()) as { secret: string };
  const enabled = await post(t, '/api/me/two-factor/enable', { code: currentCode(secret) }, cookie);
  if (enabled.status !== 200) throw new Error(`enable answered ${enabled.status}: ${await enabled.text()}`);
  const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

/** Signs in with the password and gets the cookie of the sign-in that waits for its code. */
export async function passwordStep(t: TestContext, email: string, ip?: string) {
  const res = await login(t, email, PASSWORD, ip);
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return { body: await res.json(), cookie: sessionCookie(res) };
}

/** Security alerts of one kind queued to an address. */
export const alertsTo = (db: Db, to: string, event: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to), like(mailOutbox.dedupeKey, `security:${event}:%`)));
