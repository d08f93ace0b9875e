import type { Rule } from '../http/rate-limit';

/** The rate limits of the account endpoints (counted in PostgreSQL by src/http/rate-limit.ts). */

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const LOGIN_WINDOW_SECONDS = 15 * MINUTE;
/** Failed sign-ins per account from one address: the limit an attacker can reach only for themselves. */
export const LOGIN_PER_ACCOUNT_AND_ADDRESS = 10;
/** Ceilings that bound guessing spread over many addresses or many accounts; much higher, so one attacker cannot reach them by accident. */
export const LOGIN_PER_ACCOUNT = 100;
export const LOGIN_PER_ADDRESS = 100;

export const THROTTLED_LOGIN = 'Too many failed sign-in attempts. Please try again later.';

/** The key of the per-account ceiling (a password reset clears it). */
export const loginAccountKey = (email: string) => `login:account:${email.toLowerCase()}`;

/** The keys of one sign-in attempt. */
export const loginKeys = (email: string, ip: string) => ({
  accountAndAddress: `login:account-address:${email.toLowerCase()}|${ip}`,
  account: loginAccountKey(email),
  address: `login:address:${ip}`,
});

export function loginRules(email: string, ip: string): Rule[] {
  const keys = loginKeys(email, ip);
  return [
    { key: keys.accountAndAddress, limit: LOGIN_PER_ACCOUNT_AND_ADDRESS, windowSeconds: LOGIN_WINDOW_SECONDS },
    { key: keys.account, limit: LOGIN_PER_ACCOUNT, windowSeconds: LOGIN_WINDOW_SECONDS },
    { key: keys.address, limit: LOGIN_PER_ADDRESS, windowSeconds: LOGIN_WINDOW_SECONDS },
  ];
}

/** Registrations: 5 per e-mail address and 20 per client address an hour. */
export const registerRules = (email: string, ip: string): Rule[] => [
  { key: `register:account:${email.toLowerCase()}`, limit: 5, windowSeconds: HOUR },
  { key: `register:address:${ip}`, limit: 20, windowSeconds: HOUR },
];

/** Reset-link requests: 3 per e-mail address in 15 minutes, 20 per client address an hour. */
export const forgotPasswordRules = (email: string, ip: string): Rule[] => [
  { key: `forgot:account:${email.toLowerCase()}`, limit: 3, windowSeconds: 15 * MINUTE },
  { key: `forgot:address:${ip}`, limit: 20, windowSeconds: HOUR },
];

/** New-password submissions: 10 per client address in 15 minutes. */
export const resetPasswordRules = (ip: string): Rule[] => [
  { key: `reset:address:${ip}`, limit: 10, windowSeconds: 15 * MINUTE },
];

export const THROTTLED_CODES = 'Too many wrong codes. Please try again later.';

/**
 * Two-factor codes (sign-in, set-up, turning it off): wrong codes per account from one address, with higher
 * ceilings per account and per address, in the sign-in window. A right code takes its attempt back. The ceiling per
 * account bounds guessing across restarted sign-in attempts (each voided after 5 wrong codes).
 */
export const twoFactorRules = (userId: string, ip: string): Rule[] => [
  {
    key: `2fa:account-address:${userId}|${ip}`,
    limit: LOGIN_PER_ACCOUNT_AND_ADDRESS,
    windowSeconds: LOGIN_WINDOW_SECONDS,
  },
  { key: `2fa:account:${userId}`, limit: 30, windowSeconds: LOGIN_WINDOW_SECONDS },
  { key: `2fa:address:${ip}`, limit: LOGIN_PER_ADDRESS, windowSeconds: LOGIN_WINDOW_SECONDS },
];
