CREATE TABLE "health_recent" (
	"server_id" uuid NOT NULL,
	"slot" smallint NOT NULL,
	"seq" bigint NOT NULL,
	"id" uuid NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"status" varchar(20) NOT NULL,
	"previous_status" varchar(20),
	"latency_ms" integer,
	"error" text,
	"results" jsonb,
	CONSTRAINT "health_recent_server_id_slot_pk" PRIMARY KEY("server_id","slot")
);
--> statement-breakpoint
ALTER TABLE "health_recent" ADD CONSTRAINT "health_recent_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each slot is overwritten in place: room in its page keeps the update there (HOT), and the server's rounds together.
ALTER TABLE "health_recent" SET (fillfactor = 70);
--> statement-breakpoint
-- The ring holds 50 rounds a server (src/servers/detail.ts DETAIL_ROUNDS). A statement inserting more than 50 rows
-- for one server keeps its newest 50. Two transactions writing a round of one server at the same moment take the
-- same slot (the later one wins it); both rounds stay in health_checks.
CREATE OR REPLACE FUNCTION health_recent_keep() RETURNS trigger AS $$
BEGIN
  INSERT INTO health_recent AS r (server_id, slot, seq, id, checked_at, status, previous_status, latency_ms, error, results)
  SELECT n.server_id, ((m.seq + n.k) % 50)::smallint, m.seq + n.k, n.id, n.checked_at, n.status, n.previous_status,
         n.latency_ms, n.error, n.results
  FROM (SELECT c.*, row_number() OVER (PARTITION BY c.server_id ORDER BY c.checked_at, c.id) AS k,
               count(*) OVER (PARTITION BY c.server_id) AS total
        FROM new_checks c) n
  CROSS JOIN LATERAL (SELECT coalesce(max(h.seq), 0) AS seq FROM health_recent h WHERE h.server_id = n.server_id) m
  WHERE n.k > n.total - 50
  ON CONFLICT (server_id, slot) DO UPDATE SET seq = excluded.seq, id = excluded.id, checked_at = excluded.checked_at,
    status = excluded.status, previous_status = excluded.previous_status, latency_ms = excluded.latency_ms,
    error = excluded.error, results = excluded.results;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Fills the ring from health_checks: here for the rounds stored so far, and after a bulk load made with the trigger
-- off into an empty ring (the history benchmark).
CREATE OR REPLACE FUNCTION health_recent_fill() RETURNS void AS $$
  INSERT INTO health_recent (server_id, slot, seq, id, checked_at, status, previous_status, latency_ms, error, results)
  SELECT s.id, (h.k % 50)::smallint, h.k, h.id, h.checked_at, h.status, h.previous_status, h.latency_ms, h.error,
         h.results
  FROM servers s
  CROSS JOIN LATERAL (
    SELECT l.*, row_number() OVER (ORDER BY l.checked_at, l.id) AS k
    FROM (SELECT * FROM health_checks c WHERE c.server_id = s.id ORDER BY c.checked_at DESC LIMIT 50) l) h
  ON CONFLICT (server_id, slot) DO NOTHING;
$$ LANGUAGE sql;
--> statement-breakpoint
SELECT health_recent_fill();
--> statement-breakpoint
CREATE TRIGGER health_recent_keep_trg AFTER INSERT ON health_checks
  REFERENCING NEW TABLE AS new_checks FOR EACH STATEMENT EXECUTE FUNCTION health_recent_keep();
