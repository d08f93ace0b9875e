import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** OWASP argon2id parameters (m=19 MiB, t=2, p=1). Algorithm 2 = Argon2id. */
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id. */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

/** True when the password matches the stored argon2 hash (false for a malformed hash). */
export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/** Spends the same work as a real check, for unknown accounts (sign-in timing reveals nothing). */
export async function verifyDummyPassword(plain: string): Promise<false> {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummy, plain);
  return false;
}
