DROP INDEX "documents_restricted_idx";--> statement-breakpoint
ALTER TABLE "document_counts" ADD COLUMN "restricted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_restricted_owner_idx" ON "documents" USING btree ("owner_id","space") WHERE "documents"."visibility" = 'restricted' and "documents"."deleted_at" is null;--> statement-breakpoint
-- document_counts also keeps how many of the live items are restricted, so a reader's totals need only the
-- restricted items they may read (their own and those shared with them), never a scan of every restricted item.
-- The same row triggers as 0006; a change of visibility now moves an item between the two counts.
CREATE OR REPLACE FUNCTION document_counts_update() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE document_counts SET live = 0, restricted = 0;
    RETURN NULL;
  END IF;
  INSERT INTO document_counts AS c (space, category, live, restricted)
  SELECT space, category, sum(delta), sum(restricted_delta) FROM (
    SELECT OLD.space, coalesce(OLD.category, ''), -1, CASE WHEN OLD.visibility = 'restricted' THEN -1 ELSE 0 END
      WHERE TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL
    UNION ALL
    SELECT NEW.space, coalesce(NEW.category, ''), 1, CASE WHEN NEW.visibility = 'restricted' THEN 1 ELSE 0 END
      WHERE TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL
  ) AS moves (space, category, delta, restricted_delta)
  GROUP BY space, category HAVING sum(delta) <> 0 OR sum(restricted_delta) <> 0 ORDER BY space, category
  ON CONFLICT (space, category) DO UPDATE
    SET live = c.live + excluded.live, restricted = c.restricted + excluded.restricted;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER document_counts_move_trg ON documents;
--> statement-breakpoint
CREATE TRIGGER document_counts_move_trg AFTER UPDATE OF space, category, deleted_at, visibility ON documents
  FOR EACH ROW WHEN (OLD.space IS DISTINCT FROM NEW.space OR OLD.category IS DISTINCT FROM NEW.category
                     OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
                     OR OLD.visibility IS DISTINCT FROM NEW.visibility)
  EXECUTE FUNCTION document_counts_update();
--> statement-breakpoint
UPDATE document_counts c SET restricted = r.n
FROM (SELECT space, coalesce(category, '') AS category, count(*) AS n FROM documents
      WHERE deleted_at IS NULL AND visibility = 'restricted' GROUP BY 1, 2) r
WHERE c.space = r.space AND c.category = r.category;
