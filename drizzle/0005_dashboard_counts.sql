CREATE TABLE "document_counts" (
	"space" varchar(20) PRIMARY KEY NOT NULL,
	"live" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "documents_live_created_idx" ON "documents" USING btree ("created_at") WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "servers_overview_idx" ON "servers" USING btree ((case "status" when 'offline' then 0 when 'warning' then 1 else 2 end),"name");