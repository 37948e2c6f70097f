CREATE TABLE "application_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"step" text NOT NULL,
	"status" text NOT NULL,
	"message_id" uuid,
	"sent_at" timestamp with time zone NOT NULL,
	"resume_token_sha256" text,
	"resume_expires_at" timestamp with time zone NOT NULL,
	"resume_used_at" timestamp with time zone,
	"came_back_at" timestamp with time zone,
	CONSTRAINT "application_reminders_resume_token_sha256_unique" UNIQUE("resume_token_sha256")
);
--> statement-breakpoint
CREATE TABLE "link_reminders" (
	"link_kind" text NOT NULL,
	"link_id" text NOT NULL,
	"application_id" uuid NOT NULL,
	"message_id" uuid,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "link_reminders_link_kind_link_id_pk" PRIMARY KEY("link_kind","link_id")
);
--> statement-breakpoint
CREATE TABLE "message_opt_outs" (
	"phone_hash" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outgoing_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"fallbacks" text[] DEFAULT '{}'::text[] NOT NULL,
	"provider" text NOT NULL,
	"provider_message_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"sealed" text,
	"about_kind" text,
	"about_id" text,
	"fallback_of" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"status_at" timestamp with time zone NOT NULL,
	CONSTRAINT "outgoing_messages_channel_check" CHECK ("outgoing_messages"."channel" in ('whatsapp', 'sms'))
);
--> statement-breakpoint
CREATE TABLE "reminder_stops" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "invitation_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "channel" text DEFAULT 'sms' NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "application_reminders" ADD CONSTRAINT "application_reminders_application_id_users_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_stops" ADD CONSTRAINT "reminder_stops_application_id_users_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_reminders_number" ON "application_reminders" USING btree ("application_id","number");--> statement-breakpoint
CREATE INDEX "application_reminders_sent_idx" ON "application_reminders" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "application_reminders_open_idx" ON "application_reminders" USING btree ("application_id") WHERE "application_reminders"."came_back_at" is null;--> statement-breakpoint
CREATE INDEX "outgoing_messages_application_idx" ON "outgoing_messages" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outgoing_messages_provider_id" ON "outgoing_messages" USING btree ("provider","provider_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outgoing_messages_fallback_of" ON "outgoing_messages" USING btree ("fallback_of");--> statement-breakpoint
CREATE INDEX "outgoing_messages_sealed_idx" ON "outgoing_messages" USING btree ("created_at") WHERE "outgoing_messages"."sealed" is not null;--> statement-breakpoint
CREATE INDEX "users_stopped_idx" ON "users" USING btree ("updated_at") WHERE "users"."status" = 'IN_PROGRESS' and "users"."next_step" in ('BUSINESS_ADDRESS', 'ABOUT_STORE', 'ACCOUNT_NIP', 'PASSWORD');--> statement-breakpoint
-- Messages keep their number and text sealed only until they are final (issue 34); one a provider
-- never reports final keeps them no longer than three days (modules/privacy/retention-run.ts).
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_applies_to_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_applies_to_check" CHECK ("retention_rules"."applies_to" in ('abandoned-before-consent', 'inactive-after-consent', 'rejected-application', 'decided-identity-documents', 'signed-contract', 'consent-records', 'sms-outbox', 'phone-proof', 'client-errors', 'message-texts'));
--> statement-breakpoint
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_action_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_action_check" CHECK ("retention_rules"."action" in ('erase-application', 'delete-files', 'delete-rows', 'clear-consent-records', 'clear-message-texts'));
--> statement-breakpoint
INSERT INTO "retention_rules" ("name", "country", "position", "applies_to", "counted_from", "age_days", "action", "legal_basis") VALUES
	('message-texts-3d', NULL, 18, 'message-texts', 'message-sent', 3, 'clear-message-texts', 'Interés legítimo: reenviar por SMS un mensaje que no llegó por WhatsApp. A los 3 días ya no se reenvía; el número y el texto (códigos, enlaces) se borran.');
