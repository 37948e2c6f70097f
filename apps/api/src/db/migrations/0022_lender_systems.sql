CREATE TABLE "application_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"application_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"type" text NOT NULL,
	"version" integer NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lender_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"amount" integer,
	"currency" text,
	"term_months" integer,
	"annual_rate_bps" integer,
	"reason" text,
	"reference" text,
	"decided_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lender_decisions_outcome_check" CHECK ("lender_decisions"."outcome" in ('APPROVED', 'DECLINED', 'DISBURSED'))
);
--> statement-breakpoint
CREATE TABLE "partner_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"application_id" uuid,
	"status_code" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "partner_keys_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "partner_keys_scopes_check" CHECK ("partner_keys"."scopes" <@ array['applications:read', 'personal_data:read', 'decisions:write', 'documents:read']::text[])
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[] NOT NULL,
	"secret_encrypted" text NOT NULL,
	"previous_secret_encrypted" text,
	"previous_secret_until" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" bigint NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"lease_id" uuid,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_sends_status_check" CHECK ("webhook_sends"."status" in ('PENDING', 'DELIVERED', 'FAILED'))
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_next_step_check";--> statement-breakpoint
ALTER TABLE "bureau_consent_audits" ALTER COLUMN "next_attempt_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "bureau_queries" ALTER COLUMN "next_attempt_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "change_tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_application_id_users_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lender_decisions" ADD CONSTRAINT "lender_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_calls" ADD CONSTRAINT "partner_calls_key_id_partner_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."partner_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_sends" ADD CONSTRAINT "webhook_sends_event_id_application_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."application_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_sends" ADD CONSTRAINT "webhook_sends_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_events_sequence_idx" ON "application_events" USING btree ("application_id","sequence");--> statement-breakpoint
CREATE INDEX "application_events_occurred_idx" ON "application_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "application_events_feed_idx" ON "application_events" USING btree ("tx_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "lender_decisions_user_outcome_idx" ON "lender_decisions" USING btree ("user_id","outcome");--> statement-breakpoint
CREATE INDEX "partner_calls_key_idx" ON "partner_calls" USING btree ("key_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_sends_event_endpoint_idx" ON "webhook_sends" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_sends_order_idx" ON "webhook_sends" USING btree ("endpoint_id","application_id","sequence");--> statement-breakpoint
CREATE INDEX "webhook_sends_log_idx" ON "webhook_sends" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "users_change_tx_idx" ON "users" USING btree ("change_tx","id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_external_id_unique" UNIQUE("external_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_next_step_check" CHECK ("users"."next_step" in ('TAX_ACCOUNT', 'BUSINESS_ADDRESS', 'ABOUT_STORE', 'ACCOUNT_NIP', 'ACCOUNT_BUREAU', 'PASSWORD', 'INVENTORY', 'PARTNER_FORM', 'PARTNER_BUREAU', 'PARTNER_NIP', 'COLLATERAL_FORM', 'COLLATERAL_BUREAU', 'COLLATERAL_NIP', 'WISH_NEW_COLLATERAL', 'ASK_NEW_COLLATERAL', 'ASK_REPLACE_PARTNER', 'PENDING_APPROVAL', 'APPROVED', 'DISBURSED'));--> statement-breakpoint
-- Every change of an application row records its transaction: the partner API lists applications by
-- it, so a change that commits after a cursor was handed out is still found after that cursor. A
-- step's claim (taken, then released) changes nothing the lender reads.
CREATE OR REPLACE FUNCTION users_record_change_tx() RETURNS trigger AS $$
BEGIN
  IF to_jsonb(NEW) - 'step_claim' - 'step_claimed_until' - 'change_tx'
     IS DISTINCT FROM to_jsonb(OLD) - 'step_claim' - 'step_claimed_until' - 'change_tx' THEN
    NEW.change_tx := pg_current_xact_id();
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_change_tx BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION users_record_change_tx();