-- Keeps document_counts (live items per space and category, '' = Uncategorized) and server_counts (servers
-- per environment and status). Row triggers; an update fires only when it moves an item or a server to
-- another counter (an edit that keeps the category or a health check that finds the server as it was
-- touches no counter). Both counters of a move are written in one statement in key order, so concurrent
-- moves never lock two counters in opposite orders.
CREATE OR REPLACE FUNCTION document_counts_update() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE document_counts SET live = 0;
    RETURN NULL;
  END IF;
  INSERT INTO document_counts AS c (space, category, live)
  SELECT space, category, sum(delta) FROM (
    SELECT OLD.space, coalesce(OLD.category, ''), -1 WHERE TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL
    UNION ALL
    SELECT NEW.space, coalesce(NEW.category, ''), 1 WHERE TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL
  ) AS moves (space, category, delta)
  GROUP BY space, category HAVING sum(delta) <> 0 ORDER BY space, category
  ON CONFLICT (space, category) DO UPDATE SET live = c.live + excluded.live;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER document_counts_trg AFTER INSERT OR DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION document_counts_update();
--> statement-breakpoint
CREATE TRIGGER document_counts_move_trg AFTER UPDATE OF space, category, deleted_at ON documents
  FOR EACH ROW WHEN (OLD.space IS DISTINCT FROM NEW.space OR OLD.category IS DISTINCT FROM NEW.category
                     OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION document_counts_update();
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
    RETURN NULL;
  END IF;
  INSERT INTO server_counts AS c (environment, status, n)
  SELECT environment, status, sum(delta) FROM (
    SELECT OLD.environment, OLD.status, -1 WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT NEW.environment, NEW.status, 1 WHERE TG_OP <> 'DELETE'
  ) AS moves (environment, status, delta)
  GROUP BY environment, status HAVING sum(delta) <> 0 ORDER BY environment, status
  ON CONFLICT (environment, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER server_counts_trg AFTER INSERT OR DELETE ON servers
  FOR EACH ROW EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
CREATE TRIGGER server_counts_move_trg AFTER UPDATE OF environment, status ON servers
  FOR EACH ROW WHEN (OLD.environment IS DISTINCT FROM NEW.environment OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
CREATE TRIGGER server_counts_truncate_trg AFTER TRUNCATE ON servers
  FOR EACH STATEMENT EXECUTE FUNCTION server_counts_update();
--> statement-breakpoint
INSERT INTO server_counts (environment, status, n)
SELECT environment, status, count(*) FROM servers GROUP BY environment, status;
