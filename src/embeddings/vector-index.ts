import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

/**
 * Every chunk vector of one model, held in this process's memory and compared there: without pgvector, a dot
 * product in SQL cost ~165 µs a chunk (2,000 chunks of 768 dimensions: 330 ms a search); here it is a few
 * milliseconds. Memory: chunks × dimensions × 4 bytes (10,000 chunks of 768: 31 MB). Reloaded when the model's
 * embedding state changes (a run stored or removed chunks), which one small query tells before each search.
 */

interface LoadedIndex {
  model: string;
  /** Rows and newest embedding time of the model's state: changes whenever chunks were stored or deleted. */
  fingerprint: string;
  dimensions: number;
  documentIds: string[];
  positions: number[];
  /** documentIds.length × dimensions floats. */
  vectors: Float32Array;
}

/** A chunk close to the question: its item and position, and the cosine similarity. */
export interface ChunkScore {
  documentId: string;
  position: number;
  score: number;
}

let loaded: LoadedIndex | null = null;
let loading: { fingerprint: string; promise: Promise<LoadedIndex> } | null = null;

/** Float32 little-endian bytes as stored (bytea arrives as a Buffer from pg, a Uint8Array from PGlite). */
export const toBytes = (vector: number[]): Buffer => Buffer.from(new Float32Array(vector).buffer);

async function fingerprintOf(db: Db, model: string): Promise<string> {
  const [row] = await queryRows<{ fingerprint: string }>(
    db,
    sql`select count(*)::text || '/' || coalesce(max(embedded_at)::text, '') || '/' || coalesce(sum(chunks), 0)::text
          as fingerprint
        from document_embeddings where model = ${model}`,
  );
  return row.fingerprint;
}

async function load(db: Db, model: string, fingerprint: string): Promise<LoadedIndex> {
  const rows = await queryRows<{ document_id: string; position: number; embedding: Uint8Array }>(
    db,
    sql`select document_id, position, embedding from document_chunks where model = ${model}`,
  );
  const dimensions = rows.length ? rows[0].embedding.byteLength / 4 : 0;
  const usable = rows.filter((r) => r.embedding.byteLength === dimensions * 4);
  const vectors = new Float32Array(usable.length * dimensions);
  usable.forEach((r, i) => {
    const bytes = Uint8Array.from(r.embedding); // aligned copy
    vectors.set(new Float32Array(bytes.buffer, 0, dimensions), i * dimensions);
  });
  return {
    model,
    fingerprint,
    dimensions,
    documentIds: usable.map((r) => r.document_id),
    positions: usable.map((r) => r.position),
    vectors,
  };
}

/** The model's index as the database holds it now (loaded once per change, shared by concurrent searches). */
async function currentIndex(db: Db, model: string): Promise<LoadedIndex> {
  const fingerprint = await fingerprintOf(db, model);
  if (loaded?.model === model && loaded.fingerprint === fingerprint) return loaded;
  if (loading?.fingerprint !== `${model}:${fingerprint}`) {
    const promise = load(db, model, fingerprint).then((index) => {
      loaded = index;
      return index;
    });
    promise.catch(() => {
      loading = null;
    });
    loading = { fingerprint: `${model}:${fingerprint}`, promise };
  }
  return loading.promise;
}

/** Each item's best chunk with a similarity of at least `min` to `query` (a unit vector), best first, `max` items. */
export async function closestChunks(
  db: Db,
  model: string,
  query: number[],
  min: number,
  max: number,
): Promise<ChunkScore[]> {
  const index = await currentIndex(db, model);
  const { dimensions, vectors } = index;
  if (query.length !== dimensions) return [];
  const best = new Map<string, ChunkScore>();
  for (let i = 0; i < index.documentIds.length; i++) {
    let score = 0;
    const offset = i * dimensions;
    for (let d = 0; d < dimensions; d++) score += vectors[offset + d] * query[d];
    if (score < min) continue;
    const documentId = index.documentIds[i];
    const seen = best.get(documentId);
    if (!seen || score > seen.score) best.set(documentId, { documentId, position: index.positions[i], score });
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, max);
}
