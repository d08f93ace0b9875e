/** Image types we accept, recognised by their first bytes (never by the Content-Type header alone). */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/** PNG, JPEG, GIF or WebP from the magic bytes; null for anything else (HTML, SVG, PDF …). */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** A declared Content-Type agrees with the sniffed type (absent or generic binary is fine). */
export function declaredTypeMatches(declared: string | undefined, actual: ImageType): boolean {
  const type = declared?.split(';')[0].trim().toLowerCase();
  if (!type || type === 'application/octet-stream') return true;
  if (type === 'image/jpg' || type === 'image/pjpeg') return actual === 'image/jpeg';
  return type === actual;
}
