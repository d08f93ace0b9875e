-- Keeps document_counts: live (not deleted) items per space. Statement triggers with transition tables,
-- so a bulk insert moves each counter once, not once per row.
CREATE OR REPLACE FUNCTION document_counts_update() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE document_counts SET live = 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO document_counts AS c (space, live)
    SELECT space, count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY space
    ON CONFLICT (space) DO UPDATE SET live = c.live + excluded.live;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO document_counts AS c (space, live)
    SELECT space, -count(*) FROM old_rows WHERE deleted_at IS NULL GROUP BY space
    ON CONFLICT (space) DO UPDATE SET live = c.live + excluded.live;
  ELSE
    INSERT INTO document_counts AS c (space, live)
    SELECT space, sum(n) FROM (
      SELECT space, 1 AS n FROM new_rows WHERE deleted_at IS NULL
      UNION ALL
      SELECT space, -1 AS n FROM old_rows WHERE deleted_at IS NULL
    ) delta GROUP BY space HAVING sum(n) <> 0
    ON CONFLICT (space) DO UPDATE SET live = c.live + excluded.live;
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
INSERT INTO document_counts (space, live)
SELECT space, count(*) FROM documents WHERE deleted_at IS NULL GROUP BY space;
