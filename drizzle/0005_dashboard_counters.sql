CREATE TABLE "document_counts" (
	"space" varchar(20) NOT NULL,
	"category" varchar(100) DEFAULT '' NOT NULL,
	"live" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "document_counts_space_category_pk" PRIMARY KEY("space","category")
);
--> statement-breakpoint
CREATE TABLE "server_counts" (
	"environment" varchar(20) NOT NULL,
	"status" varchar(20) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "server_counts_environment_status_pk" PRIMARY KEY("environment","status")
);
--> statement-breakpoint
CREATE INDEX "documents_live_created_idx" ON "documents" USING btree ("created_at") WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "servers_overview_idx" ON "servers" USING btree ((case "status" when 'offline' then 0 when 'warning' then 1 else 2 end),"name");--> statement-breakpoint
CREATE INDEX "servers_created_idx" ON "servers" USING btree ("created_at");