CREATE TABLE "document_chunks" (
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"heading" text,
	"anchor" text,
	"body" text NOT NULL,
	"model" varchar(200) NOT NULL,
	"embedding" "bytea" NOT NULL,
	CONSTRAINT "document_chunks_document_id_position_pk" PRIMARY KEY("document_id","position")
);
--> statement-breakpoint
CREATE TABLE "document_embeddings" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"model" varchar(200) NOT NULL,
	"content_hash" varchar(64) NOT NULL,
	"chunks" integer DEFAULT 0 NOT NULL,
	"error" text,
	"item_updated_at" timestamp with time zone NOT NULL,
	"embedded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_embeddings" ADD CONSTRAINT "document_embeddings_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_chunks_model_idx" ON "document_chunks" USING btree ("model");