import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the build wrote to static/build/manifest.json: URLs of hashed files. */
export interface Assets {
  css: string;
  boot: string;
  htmx: string;
  /** css: stylesheets the island's code imports (e.g. the editor's), linked where it renders. */
  islands: Record<string, { src: string; imports: string[]; css?: string[] }>;
  /** Small scripts only one page links (e.g. push: the settings page's subscribe script). */
  scripts?: Record<string, string>;
  /** Folder the files are served from (not in the manifest). */
  dir: string;
}

export const defaultBuildDir = path.resolve(import.meta.dirname, '../../static/build');

/** Reads the build manifest once at start-up; a missing build is a clear error. */
export function loadAssets(buildDir = defaultBuildDir): Assets {
  const file = path.join(buildDir, 'manifest.json');
  try {
    return { ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<Assets, 'dir'>), dir: buildDir };
  } catch {
    throw new Error(`No asset build at ${file}: run "npm run build" first.`);
  }
}
