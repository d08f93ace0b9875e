-- Ranking reads every candidate's search_vector. Stored out of line (TOAST, the default for a value this
-- size) each read costs three more page lookups; kept in the row (compressed if need be) it costs none.
ALTER TABLE "documents" ALTER COLUMN "search_vector" SET STORAGE MAIN;
--> statement-breakpoint
-- Existing rows keep their old storage until rewritten; a concatenation makes a new value, stored anew.
UPDATE "documents" SET "search_vector" = "search_vector" || ''::tsvector WHERE "search_vector" IS NOT NULL;
--> statement-breakpoint
-- The best live matches of a full-text query, best first: only the first 300 matches the index yields are
-- ranked (ranking every match of a word found in most items is what makes search slow). work_mem is kept
-- small for this query alone: for a word or prefix found in most items the index then answers with whole
-- pages to check (a lossy bitmap) instead of an exact list of every match, and the first 300 matches come
-- from the first few pages. Global search and the assistant join the documents they need to the result;
-- ROWS tells the planner it is a handful (its default guess, 1000, makes it scan documents for the join).
CREATE OR REPLACE FUNCTION ranked_documents(query tsquery, result_limit integer)
RETURNS TABLE (id uuid, rank real, updated_at timestamptz)
LANGUAGE plpgsql STABLE
ROWS 20
SET work_mem = '64kB'
AS $$
BEGIN
  RETURN QUERY
  WITH candidates AS (
    SELECT d.id AS cid, ts_rank(d.search_vector, query) AS crank, d.updated_at AS cupdated
    FROM documents d
    WHERE d.search_vector @@ query AND d.deleted_at IS NULL
    LIMIT 300)
  SELECT cid, crank, cupdated FROM candidates ORDER BY crank DESC, cupdated DESC LIMIT result_limit;
END
$$;
