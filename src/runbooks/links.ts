import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { serverDocuments, servers } from '../db/schema';
import { type ServerSummary, type SummarySource, summaryOf } from './shared';

/** What a linked server's summary reads of its row. */
export const summaryColumns = {
  id: servers.id,
  name: servers.name,
  hostname: servers.hostname,
  ipAddress: servers.ipAddress,
  status: servers.status,
  environment: servers.environment,
  cpuUsage: servers.cpuUsage,
  memoryUsage: servers.memoryUsage,
  diskUsage: servers.diskUsage,
  uptime: servers.uptime,
  lastHealthCheck: servers.lastHealthCheck,
  metricsUpdatedAt: servers.metricsUpdatedAt,
};

const summaryKeys = Object.keys(summaryColumns) as (keyof typeof summaryColumns)[];

/**
 * The summaries as one JSON array of value lists (in name order, values in summaryKeys order): one value to send and
 * parse instead of a row of twelve per server, which on embedded PGlite is most of what a read page with many linked
 * servers pays for them.
 */
const summariesJson = sql<unknown[][]>`coalesce(json_agg(json_build_array(${sql.join(
  summaryKeys.map((key) => summaryColumns[key]),
  sql`, `,
)}) order by ${servers.name}), '[]'::json)`;

const fromValues = (values: unknown[]) =>
  summaryOf(Object.fromEntries(summaryKeys.map((key, i) => [key, values[i]])) as SummarySource);

/**
 * Built once per database: every item page, its panel refresh and its answer ask it. The linked ids come first, as an
 * array the servers' primary key looks up: a join would let the planner read the whole servers table whenever it
 * guesses that many links match.
 */
function buildLinkedQuery(db: Db) {
  const linkedIds = sql`array(select ${serverDocuments.serverId} from ${serverDocuments} where ${serverDocuments.documentId} = ${sql.placeholder('documentId')})`;
  return db
    .select({ summaries: summariesJson })
    .from(servers)
    .where(sql`${servers.id} = any(${linkedIds})`)
    .prepare('document_linked_servers');
}
const linkedQueries = new WeakMap<Db, ReturnType<typeof buildLinkedQuery>>();

/** The servers one document is linked to, by name, with their live state. */
export async function linkedServersOf(db: Db, documentId: string): Promise<ServerSummary[]> {
  let query = linkedQueries.get(db);
  if (!query) {
    query = buildLinkedQuery(db);
    linkedQueries.set(db, query);
  }
  const [row] = await query.execute({ documentId });
  return (row?.summaries ?? []).map(fromValues);
}

/** The linked servers of many documents at once (list answers), by document id. */
export async function linkedServersOfMany(db: Db, documentIds: string[]): Promise<Map<string, ServerSummary[]>> {
  const byDocument = new Map<string, ServerSummary[]>(documentIds.map((id) => [id, []]));
  if (!documentIds.length) return byDocument;
  const rows = await db
    .select({ documentId: serverDocuments.documentId, ...summaryColumns })
    .from(serverDocuments)
    .innerJoin(servers, eq(servers.id, serverDocuments.serverId))
    .where(inArray(serverDocuments.documentId, documentIds))
    .orderBy(asc(servers.name));
  for (const { documentId, ...row } of rows) byDocument.get(documentId)?.push(summaryOf(row));
  return byDocument;
}
