-- A saved title or text wakes the embeddings listener (jobs/embeddings-listener.ts) once the save commits:
-- statement-level, so an import of many items notifies once; NOTIFY is delivered only on commit.
CREATE OR REPLACE FUNCTION embeddings_due_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('embeddings_due', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_embeddings_due_trg AFTER INSERT OR UPDATE OF title, content ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION embeddings_due_notify();
