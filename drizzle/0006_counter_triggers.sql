-- Keeps document_counts: live (not deleted) items per space and category ('' = Uncategorized), and
-- server_counts: servers per environment and status. Statement triggers with transition tables, so a bulk
-- write moves each counter once, and a write that moves nothing (an edit that keeps the category, a health
-- check that finds the server as it was) touches no counter at all.
CREATE OR REPLACE FUNCTION document_counts_update() RETURNS trigger AS $$
BEGIN
  -- Each branch reads only the transition tables its trigger defines.
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE document_counts SET live = 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO document_counts AS c (space, category, live)
    SELECT space, coalesce(category, ''), count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY 1, 2
    ON CONFLICT (space, category) DO UPDATE SET live = c.live + excluded.live;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO document_counts AS c (space, category, live)
    SELECT space, coalesce(category, ''), -count(*) FROM old_rows WHERE deleted_at IS NULL GROUP BY 1, 2
    ON CONFLICT (space, category) DO UPDATE SET live = c.live + excluded.live;
  ELSE
    INSERT INTO document_counts AS c (space, category, live)
    SELECT space, category, sum(delta) FROM (
      SELECT space, coalesce(category, '') AS category, 1 AS delta FROM new_rows WHERE deleted_at IS NULL
      UNION ALL
      SELECT space, coalesce(category, '') AS category, -1 AS delta FROM old_rows WHERE deleted_at IS NULL
    ) moves GROUP BY space, category HAVING sum(delta) <> 0
    ON CONFLICT (space, category) DO UPDATE SET live = c.live + excluded.live;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER document_counts_insert_trg AFTER INSERT ON documents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION document_counts_update();
--> statement-breakpoint
CREATE TRIGGER document_counts_update_trg AFTER UPDATE ON documents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION document_counts_update();
--> statement-breakpoint
CREATE TRIGGER document_counts_delete_trg AFTER DELETE ON documents
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION document_counts_update();
--> statement-breakpoint
CREATE TRIGGER document_counts_truncate_trg AFTER TRUNCATE ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION document_counts_update();
--> statement-breakpoint
INSERT INTO document_counts (space, category, live)
SELECT space, coalesce(category, ''), count(*) FROM documents WHERE deleted_at IS NULL GROUP BY space, coalesce(category, '');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION server_counts_update() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE server_counts SET n = 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO server_counts AS c (environment, status, n)
    SELECT environment, status, count(*) FROM new_rows GROUP BY 1, 2
    ON CONFLICT (environment, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO server_counts AS c (environment, status, n)
    SELECT environment, status, -count(*) FROM old_rows GROUP BY 1, 2
    ON CONFLICT (environment, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO server_counts AS c (environment, status, n)
    SELECT environment, status, sum(delta) FROM (
      SELECT environment, status, 1 AS delta FROM new_rows
      UNION ALL
      SELECT environment, status, -1 AS delta FROM old_rows
    ) moves GROUP BY environment, status HAVING sum(delta) <> 0
    ON CONFLICT (environment, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER server_counts_insert_trg AFTER INSERT ON servers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
CREATE TRIGGER server_counts_update_trg AFTER UPDATE ON servers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
CREATE TRIGGER server_counts_delete_trg AFTER DELETE ON servers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
CREATE TRIGGER server_counts_truncate_trg AFTER TRUNCATE ON servers
  FOR EACH STATEMENT EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
INSERT INTO server_counts (environment, status, n)
SELECT environment, status, count(*) FROM servers GROUP BY environment, status;
