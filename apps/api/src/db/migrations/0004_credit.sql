CREATE TABLE "advisor_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"contact_type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bureau_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"person_type" text NOT NULL,
	"consent_text" text NOT NULL,
	"consent_text_sha256" text NOT NULL,
	"consent_version" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text,
	"pin_verified" boolean NOT NULL,
	"bureau_folio" text NOT NULL,
	"authorized_until" timestamp with time zone NOT NULL,
	CONSTRAINT "bureau_consents_bureau_folio_unique" UNIQUE("bureau_folio")
);
--> statement-breakpoint
CREATE TABLE "bureau_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"consent_id" uuid NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"report" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bureau_queries_consent_id_unique" UNIQUE("consent_id")
);
--> statement-breakpoint
CREATE TABLE "credit_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"consent_id" uuid NOT NULL,
	"policy_version" text NOT NULL,
	"inputs" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"result" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"bureau_report_folio" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "credit_decisions_consent_id_unique" UNIQUE("consent_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "advisor_events" ADD CONSTRAINT "advisor_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_consents" ADD CONSTRAINT "bureau_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD CONSTRAINT "bureau_queries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD CONSTRAINT "bureau_queries_consent_id_bureau_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."bureau_consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_decisions" ADD CONSTRAINT "credit_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_decisions" ADD CONSTRAINT "credit_decisions_consent_id_bureau_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."bureau_consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bureau_consents_user_idx" ON "bureau_consents" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bureau_queries_due_idx" ON "bureau_queries" USING btree ("status","next_attempt_at");