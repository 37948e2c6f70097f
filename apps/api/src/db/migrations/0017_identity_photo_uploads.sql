CREATE TABLE "identity_photo_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"signer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"upload_sha256" text NOT NULL,
	"format" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"data_encrypted" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "identity_photo_uploads_kind_check" CHECK ("identity_photo_uploads"."kind" in ('id_front', 'id_back', 'selfie'))
);
--> statement-breakpoint
ALTER TABLE "identity_documents" ADD COLUMN "upload_sha256" text;--> statement-breakpoint
ALTER TABLE "identity_photo_uploads" ADD CONSTRAINT "identity_photo_uploads_signer_id_contract_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."contract_signers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_photo_uploads_one_per_kind" ON "identity_photo_uploads" USING btree ("signer_id","kind");