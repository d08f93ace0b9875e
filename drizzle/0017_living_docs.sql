CREATE TABLE "document_review_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"server_id" uuid NOT NULL,
	"server_name" varchar(100) NOT NULL,
	"field" varchar(30) NOT NULL,
	"from_value" text,
	"to_value" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_id" uuid,
	"by_name" varchar(200) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "report_team" varchar(100);--> statement-breakpoint
ALTER TABLE "document_review_flags" ADD CONSTRAINT "document_review_flags_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_review_flags" ADD CONSTRAINT "document_review_flags_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_review_flags_document_idx" ON "document_review_flags" USING btree ("document_id","at");