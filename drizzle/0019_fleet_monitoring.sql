CREATE TABLE "maintenance_windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"server_ids" uuid[],
	"environment" varchar(20),
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"weekly" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"server_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"kind" varchar(10) NOT NULL,
	"target" varchar(255) NOT NULL,
	"port" integer,
	"path" varchar(500),
	"expect_status" integer,
	"expect_text" varchar(200),
	"warn_days" integer,
	"expect_address" varchar(45),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"kind" varchar(10) NOT NULL,
	"dedupe_key" varchar(300) NOT NULL,
	"channel" varchar(10) NOT NULL,
	"user_id" uuid,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_deliveries_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"environment" varchar(20),
	"team_owner" varchar(100),
	"channel" varchar(10) NOT NULL,
	"user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"webhook_url" text,
	"webhook_format" varchar(10),
	"repeat_minutes" integer NOT NULL,
	"send_recovery" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"server_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"closed_at" timestamp with time zone,
	"next_repeat_at" timestamp with time zone,
	"repeats" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_daily" (
	"server_id" uuid NOT NULL,
	"day" date NOT NULL,
	"checks" integer NOT NULL,
	"failures" integer NOT NULL,
	"online" integer DEFAULT 0 NOT NULL,
	"warning" integer DEFAULT 0 NOT NULL,
	"offline" integer DEFAULT 0 NOT NULL,
	"maintenance" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "health_daily_server_id_day_pk" PRIMARY KEY("server_id","day")
);
--> statement-breakpoint
CREATE TABLE "health_rollups" (
	"server_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"checks" integer NOT NULL,
	"failures" integer NOT NULL,
	"online" integer DEFAULT 0 NOT NULL,
	"warning" integer DEFAULT 0 NOT NULL,
	"offline" integer DEFAULT 0 NOT NULL,
	"maintenance" integer DEFAULT 0 NOT NULL,
	"latency_min" integer,
	"latency_avg" double precision,
	"latency_max" integer,
	CONSTRAINT "health_rollups_server_id_hour_pk" PRIMARY KEY("server_id","hour")
);
--> statement-breakpoint
CREATE TABLE "health_rounds" (
	"slot_at" timestamp with time zone PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "health_schedule" (
	"server_id" uuid PRIMARY KEY NOT NULL,
	"round_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"claimed_by" varchar(100)
);
--> statement-breakpoint
CREATE TABLE "server_uptime" (
	"server_id" uuid PRIMARY KEY NOT NULL,
	"pct_24h" double precision,
	"pct_7d" double precision,
	"pct_30d" double precision,
	"pct_90d" double precision,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sla_targets" (
	"environment" varchar(20) PRIMARY KEY NOT NULL,
	"target_pct" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "health_checks" ADD COLUMN "results" jsonb;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "flapping_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "maintenance_window_id" uuid;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_checks" ADD CONSTRAINT "server_checks_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_daily" ADD CONSTRAINT "health_daily_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_rollups" ADD CONSTRAINT "health_rollups_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_schedule" ADD CONSTRAINT "health_schedule_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_uptime" ADD CONSTRAINT "server_uptime_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "server_checks_server_idx" ON "server_checks" USING btree ("server_id","position");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_idx" ON "alerts" USING btree ("server_id","rule_id") WHERE "alerts"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_repeat_idx" ON "alerts" USING btree ("next_repeat_at") WHERE "alerts"."closed_at" is null and "alerts"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "health_daily_day_idx" ON "health_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "health_rollups_hour_idx" ON "health_rollups" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "health_schedule_round_idx" ON "health_schedule" USING btree ("round_at");--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_maintenance_window_id_maintenance_windows_id_fk" FOREIGN KEY ("maintenance_window_id") REFERENCES "public"."maintenance_windows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Every server has a place in the rounds from the moment it exists (the claim query locks these rows).
INSERT INTO "health_schedule" ("server_id") SELECT "id" FROM "servers" ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION health_schedule_add() RETURNS trigger AS $$
BEGIN
  INSERT INTO health_schedule (server_id) SELECT id FROM new_servers ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER health_schedule_add_trg AFTER INSERT ON servers
  REFERENCING NEW TABLE AS new_servers FOR EACH STATEMENT EXECUTE FUNCTION health_schedule_add();
