/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts). */
import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { readableBy } from '../knowledge/access';
import { embedder } from './endpoint';
import { closestChunks } from './vector-index';

/** An item found by meaning: its best chunk's heading and anchor, and how close that chunk is (cosine). */
export interface SimilarItem {
  id: string;
  heading: string | null;
  anchor: string | null;
  /** The start of that chunk's text. */
  snippet: string;
  score: number;
}

/** Shorter questions (the first keys of search-as-you-type) are not worth a call to the endpoint. */
const MIN_QUERY_CHARS = 3;

/** Candidates compared against what the reader may read (enough for a reader who may see few of the items). */
const CANDIDATES = 200;

/**
 * The live items `reader` may read whose chunks (embedded by `model`) are closest to `vector`, each by its best
 * chunk, best first, none below `minSimilarity`: scored in memory (vector-index.ts), then kept to the live items the
 * reader may read and given their chunk's heading and text, in one query.
 */
export async function similarItems(
  db: Db,
  reader: Actor,
  vector: number[],
  model: string,
  minSimilarity: number,
  limit: number,
): Promise<SimilarItem[]> {
  const closest = await closestChunks(db, model, vector, minSimilarity, CANDIDATES);
  if (!closest.length) return [];
  const ids = `{${closest.map((c) => c.documentId).join(',')}}`;
  const positions = `{${closest.map((c) => c.position).join(',')}}`;
  const rows = await queryRows<Omit<SimilarItem, 'score'>>(
    db,
    sql`select c.document_id as id, c.heading, c.anchor,
               left(substr(c.body, strpos(c.body, E'\n') + 1), 600) as snippet
        from unnest(${ids}::uuid[], ${positions}::int[]) with ordinality as w(id, position, rank)
        join document_chunks c on c.document_id = w.id and c.position = w.position and c.model = ${model}
        join documents v on v.id = c.document_id
        where v.deleted_at is null and ${readableBy(reader, 'v')}
        order by w.rank limit ${limit}`,
  );
  const scores = new Map(closest.map((c) => [c.documentId, c.score]));
  return rows.map((r) => ({ ...r, score: scores.get(r.id) ?? 0 }));
}

/**
 * Items close in meaning to `text` for `reader`, when an embeddings endpoint is configured and answers in time;
 * [] otherwise (full text alone then ranks: embedQuery has logged why).
 */
export async function itemsByMeaning(db: Db, reader: Actor, text: string, limit: number): Promise<SimilarItem[]> {
  const endpoint = embedder();
  if (!endpoint || text.trim().length < MIN_QUERY_CHARS) return [];
  const vector = await endpoint.embedQuery(text);
  if (!vector) return [];
  return similarItems(db, reader, vector, endpoint.model, endpoint.minSimilarity, limit);
}
