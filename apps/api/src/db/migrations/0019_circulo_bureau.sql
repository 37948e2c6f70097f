-- Issue 29 (Círculo de Crédito): why a failed query stops, the raw answer kept encrypted, the PIN kept
-- encrypted for the NIP audit, and the audits themselves. Queries given up before this were exhausted.
CREATE TABLE "bureau_consent_audits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"query_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"audit_folio" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bureau_consent_audits_query_id_unique" UNIQUE("query_id"),
	CONSTRAINT "bureau_consent_audits_status" CHECK ("bureau_consent_audits"."status" in ('PENDING', 'RUNNING', 'DONE', 'REFUSED'))
);
--> statement-breakpoint
ALTER TABLE "bureau_consents" ADD COLUMN "pin_encrypted" text;--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD COLUMN "failure" text;--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD COLUMN "report_raw_encrypted" text;--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "bureau_consent_audits" ADD CONSTRAINT "bureau_consent_audits_query_id_bureau_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."bureau_queries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_consent_audits" ADD CONSTRAINT "bureau_consent_audits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bureau_consent_audits_due_idx" ON "bureau_consent_audits" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "bureau_consent_audits_user_idx" ON "bureau_consent_audits" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD CONSTRAINT "bureau_queries_failure_check" CHECK ("bureau_queries"."failure" in ('exhausted', 'refused', 'integrity'));--> statement-breakpoint
UPDATE "bureau_queries" SET "failure" = 'exhausted' WHERE "status" = 'FAILED';
