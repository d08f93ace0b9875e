-- Keeps documents.search_vector: title (A) > excerpt, tags and category (B) > content (C).
-- Inline image data is stripped so base64 does not bloat the index.
CREATE OR REPLACE FUNCTION documents_search_vector_update() RETURNS trigger AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.excerpt, '') || ' ' || array_to_string(NEW.tags, ' ') || ' ' || coalesce(NEW.category, '')), 'B') ||
    setweight(to_tsvector('english', regexp_replace(left(NEW.content, 500000), 'data:[^)[:space:]]+', ' ', 'g')), 'C');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER documents_search_vector_trg
  BEFORE INSERT OR UPDATE OF title, excerpt, tags, category, content ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_search_vector_update();
