import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { documentChunks, documentEmbeddings } from '../db/schema';
import { BATCH_SIZE, EmbeddingsError, type Embedder } from './endpoint';
import { chunkItem } from './chunks';
import { toBytes } from './vector-index';

/**
 * The embeddings job's work: every live item whose text changed since it was embedded, or that was embedded by
 * another model, is cut into chunks, embedded and stored (newest saves first), until none is due, `maxItems` are
 * done or the run is stopped. A text the endpoint refuses is recorded and not tried again until it changes; an
 * endpoint that is down ends the run (the next one tries again). Saving an item never waits on any of this.
 */

export interface EmbedRun {
  embedded: number;
  /** Due items whose text had not changed (only their date was moved on). */
  unchanged: number;
  refused: number;
  /** Why the run stopped early, when the endpoint failed. */
  failure: string | null;
}

interface DueItem {
  id: string;
  title: string;
  content: string;
  /** updated_at as PostgreSQL wrote it (microseconds kept, so it compares equal when written back). */
  updated_at: string;
  model: string | null;
  content_hash: string | null;
}

/** Items read per query while working through the due ones. */
const PAGE = 20;

const hashOf = (title: string, content: string) => createHash('sha256').update(`${title}\n${content}`).digest('hex');

/** Due: no chunks yet, another model's, or the item saved since (updated_at differs from the one embedded). */
const dueItems = (db: Db, model: string) =>
  queryRows<DueItem>(
    db,
    sql`select d.id, d.title, d.content, d.updated_at::text as updated_at, e.model, e.content_hash
        from documents d left join document_embeddings e on e.document_id = d.id
        where d.deleted_at is null
          and (e.document_id is null or e.model <> ${model} or e.item_updated_at <> d.updated_at)
        order by d.updated_at desc limit ${PAGE}`,
  );

async function record(
  db: Db,
  item: DueItem,
  model: string,
  hash: string,
  chunks: { heading: string | null; anchor: string | null; body: string; embedding: Buffer }[],
  error: string | null,
) {
  await db.transaction(async (tx) => {
    // Held until commit, so the item cannot be purged between this check and the inserts that refer to it.
    const [live] = await queryRows(tx, sql`select 1 from documents where id = ${item.id} for key share`);
    if (!live) return; // purged while it was being embedded: nothing to keep
    await tx.delete(documentChunks).where(eq(documentChunks.documentId, item.id));
    if (chunks.length) {
      await tx
        .insert(documentChunks)
        .values(chunks.map((c, position) => ({ documentId: item.id, position, model, ...c })));
    }
    const state = {
      model,
      contentHash: hash,
      chunks: chunks.length,
      error,
      itemUpdatedAt: sql`${item.updated_at}::timestamptz`,
      embeddedAt: sql`now()`,
    };
    await tx
      .insert(documentEmbeddings)
      .values({ documentId: item.id, ...state })
      .onConflictDoUpdate({ target: documentEmbeddings.documentId, set: state });
  });
}

/** Embeds one item; true when it was sent to the endpoint, false when its text had not changed. */
async function embedItem(db: Db, embedder: Embedder, item: DueItem, signal?: AbortSignal): Promise<boolean> {
  const hash = hashOf(item.title, item.content);
  if (item.model === embedder.model && item.content_hash === hash) {
    await db
      .update(documentEmbeddings)
      .set({ itemUpdatedAt: sql`${item.updated_at}::timestamptz` })
      .where(eq(documentEmbeddings.documentId, item.id));
    return false;
  }
  const chunks = chunkItem(item.title, item.content);
  const vectors: number[][] = [];
  for (let i = 0; i < chunks.length; i += BATCH_SIZE) {
    vectors.push(
      ...(await embedder.embed(
        chunks.slice(i, i + BATCH_SIZE).map((c) => c.body),
        signal,
      )),
    );
  }
  await record(
    db,
    item,
    embedder.model,
    hash,
    chunks.map((c, i) => ({ ...c, embedding: toBytes(vectors[i]) })),
    null,
  );
  return true;
}

export async function embedDueItems(
  db: Db,
  embedder: Embedder,
  opts: { maxItems?: number; signal?: AbortSignal } = {},
): Promise<EmbedRun> {
  const run: EmbedRun = { embedded: 0, unchanged: 0, refused: 0, failure: null };
  const maxItems = opts.maxItems ?? 500;
  for (let done = 0; done < maxItems && !opts.signal?.aborted; ) {
    const items = await dueItems(db, embedder.model);
    if (!items.length) break;
    for (const item of items.slice(0, maxItems - done)) {
      if (opts.signal?.aborted) break;
      done++;
      try {
        if (await embedItem(db, embedder, item, opts.signal)) run.embedded++;
        else run.unchanged++;
      } catch (err) {
        if (!(err instanceof EmbeddingsError)) throw err;
        if (!err.refusedInput) {
          run.failure = err.message;
          return run;
        }
        run.refused++;
        await record(db, item, embedder.model, hashOf(item.title, item.content), [], err.message.slice(0, 500));
      }
    }
  }
  return run;
}

export interface EmbeddingProgress {
  model: string;
  /** Live items. */
  items: number;
  /** Live items whose current text is embedded by the current model. */
  embedded: number;
  /** Live items whose current text the endpoint refused. */
  refused: number;
  /** Items still to embed (new, changed, or embedded by another model). */
  pending: number;
  chunks: number;
}

/** How far the backfill has come for `model`. */
export async function embeddingProgress(db: Db, model: string): Promise<EmbeddingProgress> {
  const [row] = await queryRows<{ items: number; embedded: number; refused: number; chunks: number }>(
    db,
    sql`select count(*)::int as items,
          count(*) filter (where e.error is null and e.model = ${model} and e.item_updated_at = d.updated_at)::int
            as embedded,
          count(*) filter (where e.error is not null and e.model = ${model} and e.item_updated_at = d.updated_at)::int
            as refused,
          coalesce(sum(e.chunks) filter (where e.model = ${model}), 0)::int as chunks
        from documents d left join document_embeddings e on e.document_id = d.id
        where d.deleted_at is null`,
  );
  return { model, ...row, pending: row.items - row.embedded - row.refused };
}
