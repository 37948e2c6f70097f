CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "application_milestones" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"tax_id_at" timestamp with time zone,
	"business_address_at" timestamp with time zone,
	"business_at" timestamp with time zone,
	"nip_sent_at" timestamp with time zone,
	"consent_at" timestamp with time zone,
	"pre_approved_at" timestamp with time zone,
	"password_at" timestamp with time zone,
	"contract_signed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_chain_checkpoints" (
	"application_id" text PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"hash" text NOT NULL,
	"events" integer NOT NULL,
	"verified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_updated_at_idx";--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (((coalesce("name", '') || ' ' || coalesce("lastname", '') || ' ' || coalesce("maternal_lastname", ''))) gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "users_status_recent_idx" ON "users" USING btree ("status","updated_at","id");--> statement-breakpoint
CREATE INDEX "users_next_step_recent_idx" ON "users" USING btree ("next_step","updated_at","id");--> statement-breakpoint
CREATE INDEX "users_utm_source_recent_idx" ON "users" USING btree ("utm_source","updated_at","id");--> statement-breakpoint
CREATE INDEX "users_utm_name_recent_idx" ON "users" USING btree ("utm_name","updated_at","id");--> statement-breakpoint
CREATE INDEX "users_updated_at_idx" ON "users" USING btree ("updated_at","id");--> statement-breakpoint
-- The milestones of the applications made before this migration, from their audit trails (the
-- funnel's former query, once).
INSERT INTO "application_milestones" ("application_id", "tax_id_at", "business_address_at", "business_at",
  "nip_sent_at", "consent_at", "pre_approved_at", "password_at", "contract_signed_at")
SELECT u."id",
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'tax-id'),
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'address'),
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'business'),
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'nip-sent'),
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'consent'),
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'decision'
    AND e."payload"->'to'->>'step' = 'PASSWORD' AND e."payload"->'to'->>'status' = 'IN_PROGRESS'),
  min(e."created_at") FILTER (WHERE e."payload"->>'transition' = 'password'),
  (SELECT min(s."signed_at") FROM "contract_signers" s WHERE s."user_id" = u."id" AND s."person_type" = 'titular')
FROM "users" u
JOIN "audit_events" e ON e."application_id" = u."id"::text AND e."payload"->>'transition' IS NOT NULL
GROUP BY u."id";
