/** The sign-in return path: only a local path starting with a single "/" (never "//host" or "/\host"); else "/". */
export function safeNext(next: string | undefined | null): string {
  if (!next || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f]/.test(next)) return '/';
  return next;
}
