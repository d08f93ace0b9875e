import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { likeEscape, prefixTsquery } from './query';
import type { SearchResult } from './schemas';

/** Most matches ranked per query: ts_rank over every match of a common word is what makes search slow. */
const RANK_CANDIDATES = 300;

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
  ip_address: string | null;
  primary_function: string | null;
  environment: string;
}

/** Plain text for a result line: markdown marks and runs of white space removed. */
const plain = (s: string | null, max = 160) => {
  if (!s) return null;
  const text = s.replace(/[#*_`>[\]!|-]+/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text || null;
};

/**
 * Knowledge items and documents by full text (title A > excerpt/tags/category B > content C), the last
 * word as a prefix. Only the first RANK_CANDIDATES matches the table yields are ranked (no ordering, which
 * would read every match), so a word found in most items stays fast.
 */
export async function searchDocuments(db: Db, q: string, limit: number): Promise<SearchResult[]> {
  const tsq = prefixTsquery(q);
  if (!tsq) return [];
  const rows = await queryRows<DocRow>(
    db,
    // The GIN index finds every match (a cheap bitmap even for a word in every item); only the first
    // RANK_CANDIDATES of them are read and ranked, in that one pass, and only the best `limit` are read
    // again for their text. The tsquery sits in a CTE so the plan is the same bitmap scan for rare and
    // common words (a generic plan would otherwise read the whole table).
    sql`with query as materialized (select to_tsquery('english', ${tsq}) as q),
        candidates as (
          select d.id, d.updated_at, ts_rank(d.search_vector, query.q) as rank from documents d, query
          where d.search_vector @@ query.q and d.deleted_at is null
          limit ${RANK_CANDIDATES}),
        best as (select * from candidates order by rank desc, updated_at desc limit ${limit})
        select d.id, d.title, d.excerpt, left(d.content, 400) as snippet, d.category, d.space
        from best join documents d on d.id = best.id
        order by best.rank desc, best.updated_at desc`,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    excerpt: plain(r.excerpt) ?? plain(r.snippet),
    category: r.category,
    type: r.space === 'knowledge' ? 'knowledge' : 'document',
    url: r.space === 'knowledge' ? `/knowledge-base?doc=${r.id}` : `/documents?doc=${r.id}`,
  }));
}

/**
 * Servers whose name, IP address or function contains the text (servers.search_text, trigram-indexed);
 * the earliest match first, so name hits come before IP hits and those before function hits.
 */
export async function searchServers(db: Db, q: string, limit: number): Promise<SearchResult[]> {
  const text = q.trim().toLowerCase();
  if (!text) return [];
  const rows = await queryRows<ServerRow>(
    db,
    sql`select id, name, ip_address, primary_function, environment from servers
        where search_text like ${`%${likeEscape(text)}%`}
        order by strpos(search_text, ${text}), name
        limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.name,
    excerpt: [r.ip_address, r.primary_function].filter(Boolean).join(' · ') || null,
    category: r.environment,
    type: 'server',
    url: `/infrastructure?server=${r.id}`,
  }));
}

/** The global search: documents by rank, then servers; servers keep up to half the places when both match. */
export async function search(db: Db, q: string, limit = 8): Promise<SearchResult[]> {
  if (!q.trim()) return [];
  const [docs, hosts] = await Promise.all([searchDocuments(db, q, limit), searchServers(db, q, limit)]);
  const serverPlaces = Math.min(hosts.length, Math.max(limit - docs.length, Math.ceil(limit / 2)));
  return [...docs.slice(0, limit - serverPlaces), ...hosts.slice(0, serverPlaces)];
}
