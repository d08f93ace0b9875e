import type { Assets } from '../ui/assets';

/**
 * URL of the settings-only push script from the build manifest (manifest.scripts.push, written by
 * src/client/build.ts); null when the build has none.
 */
export function pushScriptUrl(assets: Assets): string | null {
  return assets.scripts?.push ?? null;
}
