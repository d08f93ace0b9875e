import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';

/** A toast as the page renders it on load (see Document) and boot.js then shows. */
export interface Toast {
  title: string;
  text?: string;
  variant: 'success' | 'error' | 'info';
}

/** The messages a redirect may carry to the next page. Only a key travels, never text from a request. */
export const FLASHES = {
  signed_in: { title: 'Login Successful', variant: 'success' },
  registered: {
    title: 'Registration Successful',
    text: 'Please check your email to verify your account.',
    variant: 'success',
  },
} as const satisfies Record<string, Toast>;

export type FlashKey = keyof typeof FLASHES;

export const FLASH_COOKIE = 'ops_flash';
/** Long enough for the redirect to be followed, short enough not to greet a later visit. */
const FLASH_SECONDS = 60;

const cookieOptions = (c: Context<AppEnv>) => ({ path: '/', secure: c.var.deps.config.secureCookies });

/** Leaves a message for the next page render (after a 303): a short-lived HttpOnly cookie holding its key. */
export function setFlash(c: Context<AppEnv>, key: FlashKey): void {
  setCookie(c, FLASH_COOKIE, key, { ...cookieOptions(c), httpOnly: true, sameSite: 'Lax', maxAge: FLASH_SECONDS });
}

/** The message left for this page, if any; reading it clears it, so it shows once. */
export function takeFlash(c: Context<AppEnv>): Toast | undefined {
  const key = getCookie(c, FLASH_COOKIE);
  if (key === undefined) return undefined;
  deleteCookie(c, FLASH_COOKIE, cookieOptions(c));
  return Object.hasOwn(FLASHES, key) ? FLASHES[key as FlashKey] : undefined;
}
