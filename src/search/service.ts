/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts), besides servers. */
import { sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { fuseHits, itemsByMeaning, type SimilarItem } from '../embeddings/service';
import { readableBy, readsEverything } from '../knowledge/access';
import { itemHref } from '../knowledge/shared';
import { likeEscape } from '../db/like';
import { prefixTsquery } from './query';
import type { SearchResult } from './schemas';

interface DocRow {
  id: string;
  title: string;
  excerpt: string | null;
  snippet: string | null;
  category: string | null;
  space: 'knowledge' | 'documents';
}

interface ServerRow {
  id: string;
  name: string;
  ipAddress: string | null;
  primaryFunction: string | null;
  environment: string;
}

/** Plain text for a result line: markdown marks and runs of white space removed. */
const plain = (s: string | null, max = 160) => {
  if (!s) return null;
  const text = s
    .replace(/[#*_`>[\]!|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text || null;
};

const documentResult = (r: DocRow): SearchResult => ({
  id: r.id,
  title: r.title,
  excerpt: plain(r.excerpt) ?? plain(r.snippet),
  category: r.category,
  type: r.space === 'knowledge' ? 'knowledge' : 'document',
  url: itemHref(r.space, r.id, r.title),
});

const serverResult = (r: ServerRow): SearchResult => ({
  id: r.id,
  title: r.name,
  excerpt: [r.ipAddress, r.primaryFunction].filter(Boolean).join(' · ') || null,
  category: r.environment,
  type: 'server',
  url: `/infrastructure?server=${r.id}`,
});

/** Items only meaning found, as result lines (similarItems already kept to what the reader may read). */
const documentsByIds = async (db: Db, ids: string[]) =>
  (
    await queryRows<DocRow>(
      db,
      sql`select id, title, excerpt, left(content, 400) as snippet, category, space
          from documents where id = any(${`{${ids.join(',')}}`}::uuid[]) and deleted_at is null`,
    )
  ).map(documentResult);

/** A hit found by meaning links to the heading of the part that matched. */
const atSection = (r: SearchResult & { match?: SimilarItem }): SearchResult => {
  const { match, ...result } = r;
  return match?.anchor ? { ...result, url: `${result.url}#${match.anchor}` } : result;
};

/** Every ranked candidate (ranked_documents() ranks at most 600 whatever the limit asked for). */
const ALL_CANDIDATES = 600;

/**
 * How many ranked hits to ask for: `limit`, or, for a reader who may not see every item, all candidates, so
 * that dropping the hidden ones still leaves `limit` hits (ranking costs the same: every candidate is ranked).
 */
const candidatesFor = (reader: Actor, limit: number) => (readsEverything(reader) ? limit : ALL_CANDIDATES);

/**
 * The best `limit` ranked hits of a tsquery that `reader` may read, as a subquery (id, rank, updated_at):
 * filtered before the limit, and on the visibility columns alone, so no text is read for a hit that is dropped.
 */
export const readableHits = (reader: Actor, query: SQL, limit: number) => sql`(
  select r.id, r.rank, r.updated_at
  from ranked_documents(${query}, ${candidatesFor(reader, limit)}) r join documents v on v.id = r.id
  where ${readableBy(reader, 'v')}
  order by r.rank desc, r.updated_at desc limit ${limit})`;

/**
 * Both kinds of hit in one round trip, best first:
 * - knowledge items and documents `reader` may read, by full text (title A > excerpt/tags/category B > content
 *   C), the last word as a prefix, ranked by ranked_documents() (migration 0009: only the first 300 matches and
 *   the first 300 title matches are ranked); the reader's filter applies before the limit;
 * - servers whose name, IP address or function contains the text (servers.search_text, trigram-indexed),
 *   the earliest match first, so name hits come before address hits and those before function hits.
 */
async function searchBoth(
  db: Db,
  reader: Actor,
  q: string,
  limit: number,
): Promise<{ docs: SearchResult[]; hosts: SearchResult[] }> {
  const text = q.trim().toLowerCase();
  const [row] = await queryRows<{ docs: DocRow[]; hosts: ServerRow[] }>(
    db,
    sql`select
      (select coalesce(json_agg(d order by d.rank desc, d.updated_at desc), '[]') from (
         select d.id, d.title, d.excerpt, left(d.content, 400) as snippet, d.category, d.space, r.rank, r.updated_at
         from ${readableHits(reader, sql`to_tsquery('english', ${prefixTsquery(q)})`, limit)} r
         join documents d on d.id = r.id) d) as docs,
      (select coalesce(json_agg(s order by s.position, s.name), '[]') from (
         select id, name, ip_address as "ipAddress", primary_function as "primaryFunction", environment,
                strpos(search_text, ${text}) as position
         from servers where search_text like ${`%${likeEscape(text)}%`}
         order by strpos(search_text, ${text}), name limit ${limit}) s) as hosts`,
  );
  return { docs: row.docs.map(documentResult), hosts: row.hosts.map(serverResult) }; // json columns arrive parsed
}

/**
 * The global search as `reader` sees it: documents by rank, then servers; servers keep up to half the places
 * when both match. With an embeddings endpoint, documents found by full text and by meaning are fused (RRF).
 */
export async function search(db: Db, reader: Actor, q: string, limit = 8): Promise<SearchResult[]> {
  if (!q.trim()) return [];
  const [both, similar] = await Promise.all([searchBoth(db, reader, q, limit), itemsByMeaning(db, reader, q, limit)]);
  const hosts = both.hosts;
  const docs = (await fuseHits(both.docs, similar, limit, (ids) => documentsByIds(db, ids))).map(atSection);
  const serverPlaces = Math.min(hosts.length, Math.max(limit - docs.length, Math.ceil(limit / 2)));
  return [...docs.slice(0, limit - serverPlaces), ...hosts.slice(0, serverPlaces)];
}
