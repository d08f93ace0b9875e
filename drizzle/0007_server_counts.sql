CREATE TABLE "server_counts" (
	"environment" varchar(20) NOT NULL,
	"status" varchar(20) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "server_counts_environment_status_pk" PRIMARY KEY("environment","status")
);
--> statement-breakpoint
CREATE INDEX "servers_created_idx" ON "servers" USING btree ("created_at");