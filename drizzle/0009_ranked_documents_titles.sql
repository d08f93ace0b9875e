-- The best live matches of a full-text query, best first. Ranking every match of a word found in most items
-- is what makes search slow, so only a bounded set is ranked: the first 300 matches the index yields, and
-- the first 300 items whose TITLE matches (title_vector, documents_title_search_idx). Without the second set,
-- an item with the word in its title could sit past the first 300 body matches and never be ranked at all.
-- A title candidate must match the whole query too (a negated word may be absent from the title yet in the
-- body); that check runs on the 300 title hits, after their LIMIT, so it filters them instead of making
-- PostgreSQL read the search index a second time.
-- Ranking uses the query's positive part (querytree): ts_rank scores any query with a negation as 1e-20.
-- work_mem is kept small for this query alone: for a word or prefix found in most items the index then
-- answers with whole pages to check (a lossy bitmap) instead of an exact list of every match, and the first
-- 300 matches come from the first few pages. ROWS tells the planner the result is a handful (its default
-- guess, 1000, makes it scan documents for the callers' join).
CREATE OR REPLACE FUNCTION ranked_documents(query tsquery, result_limit integer)
RETURNS TABLE (id uuid, rank real, updated_at timestamptz)
LANGUAGE plpgsql STABLE
ROWS 20
SET work_mem = '64kB'
AS $$
DECLARE
  positive tsquery := CASE WHEN querytree(query) = 'T' THEN query ELSE querytree(query)::tsquery END;
BEGIN
  RETURN QUERY
  WITH title_hits AS (
    SELECT d.id AS tid, d.search_vector AS tvector, d.updated_at AS tupdated
    FROM documents d
    WHERE d.title_vector @@ query AND d.deleted_at IS NULL
    LIMIT 300),
  candidates AS (
    (SELECT tid AS cid, ts_rank(tvector, positive) AS crank, tupdated AS cupdated FROM title_hits WHERE tvector @@ query)
    UNION
    (SELECT d.id, ts_rank(d.search_vector, positive), d.updated_at
     FROM documents d
     WHERE d.search_vector @@ query AND d.deleted_at IS NULL
     LIMIT 300))
  SELECT cid, crank, cupdated FROM candidates ORDER BY crank DESC, cupdated DESC LIMIT result_limit;
END
$$;
