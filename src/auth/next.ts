/** The sign-in return path: only a local path starting with a single "/" (never "//host" or "/\host"); else "/". */
export function safeNext(next: string | undefined | null): string {
  if (!next || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f]/.test(next)) return '/';
  return next;
}

/** The page that asks for the two-factor code after the password (or Google/OIDC), keeping the return path. */
export const codeStepUrl = (next: string) =>
  next && next !== '/' ? `/login/two-factor?next=${encodeURIComponent(next)}` : '/login/two-factor';

/** Settings › Security's two-factor set-up: where a user the workspace requires it of is sent. */
export const TWO_FACTOR_SETUP_PATH = '/settings/two-factor';
