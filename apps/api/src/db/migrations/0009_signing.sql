CREATE TABLE "contract_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"signer_id" uuid NOT NULL,
	"issued_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_signers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contract_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"person_type" text NOT NULL,
	"aval_id" uuid,
	"name" text NOT NULL,
	"phone_e164" text NOT NULL,
	"state" text NOT NULL,
	"verification_attempts" integer DEFAULT 0 NOT NULL,
	"extra_attempts" integer DEFAULT 0 NOT NULL,
	"current_verification_id" uuid,
	"last_verification_status" text,
	"identity_id" text,
	"signature_png_encrypted" "bytea",
	"signature_sha256" text,
	"signed_at" timestamp with time zone,
	"evidence" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contract_signers_person_type_check" CHECK ("contract_signers"."person_type" in ('titular', 'collateral')),
	CONSTRAINT "contract_signers_state_check" CHECK ("contract_signers"."state" in ('AWAITING_VERIFICATION', 'VERIFYING', 'UNDER_REVIEW', 'VERIFICATION_REJECTED', 'VERIFIED', 'SIGNED')),
	CONSTRAINT "contract_signers_last_status_check" CHECK ("contract_signers"."last_verification_status" is null or "contract_signers"."last_verification_status" in ('APPROVED', 'REJECTED', 'UNDER_REVIEW'))
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"country" text NOT NULL,
	"template_version" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"aval_ids" jsonb NOT NULL,
	"unsigned_pdf" "bytea" NOT NULL,
	"unsigned_sha256" text NOT NULL,
	"signed_pdf" "bytea",
	"signed_sha256" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contracts_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "identity_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"data_encrypted" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "identity_documents_kind_check" CHECK ("identity_documents"."kind" in ('id_front', 'id_back', 'selfie'))
);
--> statement-breakpoint
CREATE TABLE "identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"signer_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"verification_type" text NOT NULL,
	"status" text NOT NULL,
	"provider_verification_id" text,
	"identity_id" text,
	"answer_due_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"answered_by" text,
	"answer" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "identity_verifications_provider_verification_id_unique" UNIQUE("provider_verification_id"),
	CONSTRAINT "identity_verifications_status_check" CHECK ("identity_verifications"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'UNDER_REVIEW')),
	CONSTRAINT "identity_verifications_type_check" CHECK ("identity_verifications"."verification_type" in ('VERIFICATION', 'REVERIFICATION'))
);
--> statement-breakpoint
ALTER TABLE "contract_links" ADD CONSTRAINT "contract_links_signer_id_contract_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."contract_signers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signers" ADD CONSTRAINT "contract_signers_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signers" ADD CONSTRAINT "contract_signers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signers" ADD CONSTRAINT "contract_signers_aval_id_avals_id_fk" FOREIGN KEY ("aval_id") REFERENCES "public"."avals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_documents" ADD CONSTRAINT "identity_documents_verification_id_identity_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_signer_id_contract_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."contract_signers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_links_signer_idx" ON "contract_links" USING btree ("signer_id");--> statement-breakpoint
CREATE INDEX "contract_signers_user_idx" ON "contract_signers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_signers_one_titular" ON "contract_signers" USING btree ("contract_id") WHERE "contract_signers"."person_type" = 'titular';--> statement-breakpoint
CREATE UNIQUE INDEX "contract_signers_one_per_aval" ON "contract_signers" USING btree ("contract_id","aval_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_documents_one_per_kind" ON "identity_documents" USING btree ("verification_id","kind");--> statement-breakpoint
CREATE INDEX "identity_verifications_signer_idx" ON "identity_verifications" USING btree ("signer_id","created_at");--> statement-breakpoint
CREATE INDEX "identity_verifications_due_idx" ON "identity_verifications" USING btree ("answer_due_at") WHERE "identity_verifications"."status" = 'PENDING';--> statement-breakpoint
-- Signing evidence: a signature, once given, is never changed or removed; documents and checks
-- are never removed; the unsigned document is fixed once someone signed it.
CREATE OR REPLACE FUNCTION contract_signers_keep_signature() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.state = 'SIGNED' THEN
    RAISE EXCEPTION '% is evidence: % of a signed signer refused', TG_TABLE_NAME, TG_OP;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER contract_signers_keep_signature
  BEFORE UPDATE OR DELETE ON contract_signers
  FOR EACH ROW EXECUTE FUNCTION contract_signers_keep_signature();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contracts_keep_signed_document() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (OLD.signed_sha256 IS NOT NULL AND NEW.unsigned_sha256 <> OLD.unsigned_sha256) THEN
    RAISE EXCEPTION '% is evidence: % refused', TG_TABLE_NAME, TG_OP;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER contracts_keep_signed_document
  BEFORE UPDATE OR DELETE ON contracts
  FOR EACH ROW EXECUTE FUNCTION contracts_keep_signed_document();
--> statement-breakpoint
CREATE TRIGGER identity_documents_no_update_or_delete
  BEFORE UPDATE OR DELETE ON identity_documents
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER identity_verifications_no_delete
  BEFORE DELETE ON identity_verifications
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
