import { constantTimeEqual } from '@oslojs/crypto/subtle';
import {
  decodeBase32IgnorePadding,
  encodeBase32LowerCaseNoPadding,
  encodeBase32UpperCaseNoPadding,
} from '@oslojs/encoding';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { hashToken } from './tokens';

/** TOTP as authenticator apps expect it (RFC 6238): SHA-1, 30-second steps, 6 digits. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted (clock drift between the server and the phone). */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Ops Hub';

/** A new random 160-bit TOTP secret (RFC 4226's recommended length), base32 as apps show it. */
export function newTotpSecret(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32UpperCaseNoPadding(bytes);
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUrl(secret: string, accountName: string): string {
  return createTOTPKeyURI(ISSUER, accountName, decodeBase32IgnorePadding(secret), TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

/** The time step of a moment (what a TOTP code is computed from). */
export const stepAt = (ms: number) => Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);

/** True when the text looks like a TOTP code (six digits, spaces allowed). */
export const isTotpShaped = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ''));

/**
 * The time step a code belongs to (now ±1 step), or null. Steps at or before `lastStep` are never matched, so a
 * code (or an older one) cannot be used twice.
 */
export function matchTotpStep(secret: string, code: string, lastStep: number | null, now = Date.now()): number | null {
  const given = new TextEncoder().encode(code.replace(/\s/g, ''));
  const key = decodeBase32IgnorePadding(secret);
  const current = stepAt(now);
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (lastStep !== null && step <= lastStep) continue;
    const expected = new TextEncoder().encode(generateHOTP(key, BigInt(step), TOTP_DIGITS));
    if (constantTimeEqual(given, expected)) return step;
  }
  return null;
}

/** Ten new recovery codes: 80 random bits each, shown as four groups of four ("abcd-efgh-ijkl-mnop"). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = new Uint8Array(10);
    crypto.getRandomValues(bytes);
    return encodeBase32LowerCaseNoPadding(bytes).match(/.{4}/g)!.join('-');
  });
}

/** The stored form of a recovery code: sha256 of it without dashes, spaces or case. */
export const hashRecoveryCode = (code: string) => hashToken(code.toLowerCase().replace(/[\s-]/g, ''));
