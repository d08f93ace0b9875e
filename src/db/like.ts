/** Escapes LIKE wildcards so user text matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
