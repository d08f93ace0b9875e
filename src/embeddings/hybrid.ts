import type { SimilarItem } from './similar';

/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009): a hit at rank r scores 1 / (K + r). */
export const RRF_K = 60;

/** Ids of several rankings fused by reciprocal rank fusion, best first; ties keep the first ranking's order. */
export function fuseRankings(rankings: string[][], k = RRF_K): string[] {
  const scores = new Map<string, number>();
  for (const ids of rankings) {
    for (const [rank, id] of ids.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1));
  }
  return [...scores.keys()].sort((a, b) => (scores.get(b) as number) - (scores.get(a) as number));
}

/**
 * Full-text hits and items found by meaning as one ranking (RRF), `limit` long, each hit with the chunk that
 * matched by meaning when there is one (for a citation to its heading). `load` reads the hits that only meaning
 * found (the similar items are already limited to what the reader may read).
 */
export async function fuseHits<T extends { id: string }>(
  byText: T[],
  byMeaning: SimilarItem[],
  limit: number,
  load: (ids: string[]) => Promise<T[]>,
): Promise<(T & { match?: SimilarItem })[]> {
  if (!byMeaning.length) return byText.slice(0, limit);
  const ids = fuseRankings([byText.map((h) => h.id), byMeaning.map((m) => m.id)]).slice(0, limit);
  const known = new Map(byText.map((h) => [h.id, h]));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) for (const h of await load(missing)) known.set(h.id, h);
  const matches = new Map(byMeaning.map((m) => [m.id, m]));
  return ids.flatMap((id) => {
    const hit = known.get(id);
    if (!hit) return []; // deleted between the two reads
    const match = matches.get(id);
    return [match ? { ...hit, match } : hit];
  });
}
