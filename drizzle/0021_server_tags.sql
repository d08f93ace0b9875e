ALTER TABLE "servers" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "tag" varchar(50);