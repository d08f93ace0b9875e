import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an upload URL stays valid. */
export const UPLOAD_URL_SECONDS = 15 * 60;

const sign = (secret: string, id: string, exp: number, ownerId: string) =>
  createHmac('sha256', secret).update(`objects.put\n${id}\n${exp}\n${ownerId}`).digest('base64url');

/** A short-lived, HMAC-signed upload URL of ours for one new object and one user. */
export function signUploadUrl(secret: string, id: string, ownerId: string, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + UPLOAD_URL_SECONDS;
  return `/api/objects/put/${id}?exp=${exp}&sig=${sign(secret, id, exp, ownerId)}`;
}

/** True when the signature matches this id and user and has not expired. */
export function verifyUploadUrl(
  secret: string,
  id: string,
  ownerId: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): boolean {
  const expiry = Number(exp);
  if (!sig || !Number.isInteger(expiry) || expiry * 1000 < now) return false;
  const expected = Buffer.from(sign(secret, id, expiry, ownerId));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
