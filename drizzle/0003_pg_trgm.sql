-- Trigram matching for global search over server names, addresses and functions (servers.search_text).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
