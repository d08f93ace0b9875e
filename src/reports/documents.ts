/** Read model: joins knowledge (the documents a reader may see, knowledge/access.ts) and runbooks (review flags). */
import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { readableBy } from '../knowledge/access';
import type { ReviewFlagField } from '../runbooks/shared';
import { asDate } from './fleet';
import { documentOfTeam, flagOfTeam } from './teams';
import type { Capped, FlaggedDocument, OverdueDocument, RunbookRef } from './types';

/** Rows of the flagged and overdue lists; the rest are counted. */
export const DOCUMENT_ROWS = 25;
/** Runbooks named per server (by title). */
const RUNBOOKS_PER_SERVER = 10;
const limit = (n: number) => sql.raw(String(n));

/** The live documents linked to these servers that `reader` may read, by server id, titles in order. */
export async function runbooksOf(db: Db, serverIds: string[], reader: Actor): Promise<Record<string, RunbookRef[]>> {
  if (!serverIds.length) return {};
  const ids = sql.join(
    serverIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<{ serverId: string; id: string; space: string; title: string }>(
    db,
    sql`select r."serverId", r.id, r.space, r.title from (
          select sd.server_id as "serverId", d.id, d.space, d.title,
                 row_number() over (partition by sd.server_id order by d.title, d.id) as n
          from server_documents sd join documents d on d.id = sd.document_id
          where sd.server_id in (${ids}) and d.deleted_at is null and ${readableBy(reader, 'd')}) r
        where r.n <= ${limit(RUNBOOKS_PER_SERVER)} order by r.title, r.id`,
  );
  const byServer: Record<string, RunbookRef[]> = {};
  for (const { serverId, ...doc } of rows) {
    byServer[serverId] ??= [];
    byServer[serverId].push(doc);
  }
  return byServer;
}

const total = (rows: Record<string, unknown>[]) => (rows.length ? Number(rows[0].total) : 0);

/** Review flags on live documents `reader` may read (of the team's servers' documents), newest first, capped. */
export async function flaggedDocuments(db: Db, reader: Actor, team: string | null): Promise<Capped<FlaggedDocument>> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select d.id, d.space, d.title, f.server_id, f.server_name, f.field, f.from_value, f.to_value, f.at, f.by_name,
               count(*) over () as total
        from document_review_flags f join documents d on d.id = f.document_id
        where d.deleted_at is null and ${readableBy(reader, 'd')} and ${flagOfTeam(team)}
        order by f.at desc, d.title, f.id limit ${limit(DOCUMENT_ROWS)}`,
  );
  return {
    rows: rows.map((r) => ({
      document: { id: String(r.id), space: String(r.space), title: String(r.title) },
      serverId: String(r.server_id),
      serverName: String(r.server_name),
      field: r.field as ReviewFlagField,
      from: (r.from_value as string) ?? null,
      to: (r.to_value as string) ?? null,
      at: asDate(r.at)!,
      by: String(r.by_name),
    })),
    total: total(rows),
  };
}

/** Live documents `reader` may read whose review date has passed (of the team's servers), oldest first, capped. */
export async function overdueReviews(
  db: Db,
  reader: Actor,
  team: string | null,
  now: Date,
): Promise<Capped<OverdueDocument>> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select d.id, d.space, d.title, d.review_due_at, count(*) over () as total from documents d
        where d.deleted_at is null and d.review_due_at is not null
          and d.review_due_at <= ${now.toISOString()}::timestamptz
          and ${readableBy(reader, 'd')} and ${documentOfTeam(team)}
        order by d.review_due_at, d.title, d.id limit ${limit(DOCUMENT_ROWS)}`,
  );
  return {
    rows: rows.map((r) => ({
      id: String(r.id),
      space: String(r.space),
      title: String(r.title),
      reviewDueAt: asDate(r.review_due_at)!,
    })),
    total: total(rows),
  };
}
