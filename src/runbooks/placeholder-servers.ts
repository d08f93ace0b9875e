import { asc, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { servers } from '../db/schema';
import {
  type FilledContent,
  fillPlaceholders,
  PLACEHOLDER_FIELDS,
  type PlaceholderServer,
  placeholderNames,
  type ServersByName,
} from './placeholders';
import { isoOrNull } from './shared';

const serverColumns = getTableColumns(servers);
type Column = (typeof PLACEHOLDER_FIELDS)[number] | 'metricsUpdatedAt';
/** The columns placeholders read. */
const columns = Object.fromEntries(
  [...PLACEHOLDER_FIELDS, 'metricsUpdatedAt'].map((f) => [f, serverColumns[f as Column]]),
) as Pick<typeof serverColumns, Column>;

/** The servers of these lower-case names, in any case: one query for all of them. */
export async function serversNamed(db: Db, lowerNames: string[]): Promise<ServersByName> {
  const byName: ServersByName = new Map();
  if (!lowerNames.length) return byName;
  const rows = await db
    .select(columns)
    .from(servers)
    .where(inArray(sql`lower(${servers.name})`, lowerNames))
    .orderBy(asc(servers.name));
  for (const row of rows) {
    const server: PlaceholderServer = {
      ...row,
      lastHealthCheck: isoOrNull(row.lastHealthCheck),
      metricsUpdatedAt: isoOrNull(row.metricsUpdatedAt),
    };
    const key = server.name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), server]);
  }
  return byName;
}

/** An item's content with its `{{server:NAME.field}}` placeholders filled from the live records (no query without any). */
export async function fillServerPlaceholders(db: Db, content: string, timeZone = 'UTC'): Promise<FilledContent> {
  return fillPlaceholders(content, await serversNamed(db, placeholderNames(content)), timeZone);
}
