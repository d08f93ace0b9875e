/** Response headers of a download. */

/**
 * `Content-Disposition: attachment` naming the file; a name beyond ASCII goes in `filename*` (RFC 6266) with a plain
 * fallback.
 */
export function attachment(name: string, fallback: string): string {
  const plain = /^[\w.-]+$/.test(name) ? name : fallback;
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A zip download; no-transform: the compression middleware would read the whole stream into memory first. */
export const zipHeaders = (name: string, fallback: string) => ({
  'Content-Type': 'application/zip',
  'Content-Disposition': attachment(name, fallback),
  'Cache-Control': 'private, no-store, no-transform',
  'X-Content-Type-Options': 'nosniff',
});
