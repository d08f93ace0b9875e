-- The best live matches of a full-text query, best first. Ranking every match of a word found in most items
-- is what makes search slow, so only a bounded set is ranked: the first 300 matches the index yields, and
-- the first 300 items whose TITLE matches (documents_title_search_idx). Without the second set, an item with
-- the word in its title could sit past the first 300 body matches and never be ranked at all. A title
-- candidate must match the whole query too (a negated word may be absent from the title yet in the body).
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
  WITH candidates AS (
    (SELECT d.id AS cid, ts_rank(d.search_vector, positive) AS crank, d.updated_at AS cupdated
     FROM documents d
     WHERE to_tsvector('english', d.title) @@ query AND d.search_vector @@ query AND d.deleted_at IS NULL
     LIMIT 300)
    UNION
    (SELECT d.id, ts_rank(d.search_vector, positive), d.updated_at
     FROM documents d
     WHERE d.search_vector @@ query AND d.deleted_at IS NULL
     LIMIT 300))
  SELECT cid, crank, cupdated FROM candidates ORDER BY crank DESC, cupdated DESC LIMIT result_limit;
END
$$;
