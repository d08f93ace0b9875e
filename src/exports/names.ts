/** File and folder names inside an export zip: safe on every system, and one name per item. */

const MAX_SLUG = 80;
const MAX_FOLDER = 100;
/** Names Windows keeps for devices: a file or folder called so cannot be unpacked there. */
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

const notDevice = (name: string) => (DEVICE.test(name) ? `${name}_` : name);

/**
 * Characters that change how a name looks without showing themselves: bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069: "report\u202Egpj.exe" shows as "reportexe.jpg"), the bidi marks (U+200E, U+200F,
 * U+061C) and zero-width ones (U+200B–U+200D, U+2060, U+FEFF). Removed, not replaced: "Fire\u200Bwall" is "Firewall".
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** `text` without its invisible characters (one pass: linear in its length). */
const visible = (text: string) => text.replace(INVISIBLE, '');

/**
 * A title as a file name (without `.md`): letters and digits of any script, lower case, the rest one `-`;
 * "Patch Günther's VPN: step 2" → "patch-gunther-s-vpn-step-2". Never empty, never `.`/`..`, never a slash.
 */
export function fileSlug(title: string): string {
  const words = visible(title)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .normalize('NFC');
  const cut = [...words].slice(0, MAX_SLUG).join('').replace(/-+$/, '');
  return notDevice(cut || 'untitled');
}

/**
 * A category as a folder name ('' = none: the top level). Invisible characters go; slashes, backslashes, control and
 * reserved characters become `-`, leading dots go (no `..`, no hidden folder), so a category can never reach outside its folder.
 */
export function folderName(category: string | null | undefined): string {
  if (!category?.trim()) return '';
  const name = visible(category)
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.-]+|[\s.]+$/g, '');
  const cut = [...name].slice(0, MAX_FOLDER).join('').trim();
  return notDevice(cut || 'category');
}

/** `folder/name` ('' folder: the top level). */
export const inFolder = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** The names already written to one zip: a second item with the same slug in a folder gets `-2`, then `-3` … */
export class ZipNames {
  private readonly used = new Set<string>();
  /** Per `folder/slug` (lower case), the suffix to try next: N items of one title cost N lookups, not N²/2. */
  private readonly next = new Map<string, number>();

  /** A free `folder/slug.md` (`folder/slug-2.md` … when taken), now taken. Compared without case (Windows, macOS). */
  markdownPath(folder: string, slug: string): string {
    const stem = inFolder(folder, slug).toLowerCase();
    for (let n = this.next.get(stem) ?? 1; ; n++) {
      const path = inFolder(folder, `${slug}${n > 1 ? `-${n}` : ''}.md`);
      if (this.claim(path)) {
        this.next.set(stem, n + 1);
        return path;
      }
    }
  }

  /** Takes `path` when it is free (true), else false: an image two items of a folder share is written once. */
  claim(path: string): boolean {
    const key = path.toLowerCase();
    if (this.used.has(key)) return false;
    this.used.add(key);
    return true;
  }
}
