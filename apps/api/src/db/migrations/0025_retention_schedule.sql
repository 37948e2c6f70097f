-- The retention schedule as data (issue 31): each rule names what it applies to, the date its age
-- counts from, the age, the action and whether it is on; the job `retention-schedule` runs the
-- enabled ones daily in `position` order (modules/privacy/retention-*.ts, docs/PRIVACY.md).
-- `country` null: every country; set: only that country's rows (a legal minimum differs by law).
CREATE TABLE "retention_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text,
	"position" integer NOT NULL,
	"applies_to" text NOT NULL,
	"counted_from" text NOT NULL,
	"age_days" integer NOT NULL,
	"action" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"legal_basis" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_rules_age_check" CHECK ("retention_rules"."age_days" > 0),
	CONSTRAINT "retention_rules_country_check" CHECK ("retention_rules"."country" is null or "retention_rules"."country" in ('do', 'mx')),
	CONSTRAINT "retention_rules_applies_to_check" CHECK ("retention_rules"."applies_to" in ('abandoned-before-consent', 'rejected-application', 'decided-identity-documents', 'signed-contract', 'sms-outbox')),
	CONSTRAINT "retention_rules_counted_from_check" CHECK ("retention_rules"."counted_from" in ('last-activity', 'rejection', 'verification-decision', 'last-signature', 'message-sent')),
	CONSTRAINT "retention_rules_action_check" CHECK ("retention_rules"."action" in ('erase-application', 'delete-files', 'delete-rows'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "retention_rules_name_country" ON "retention_rules" USING btree ("name", coalesce("country", '*'));
--> statement-breakpoint
-- One row per run of the schedule, written with its audit event: what the back office lists.
CREATE TABLE "retention_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"counts" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "retention_runs_started_idx" ON "retention_runs" USING btree ("started_at");
--> statement-breakpoint
-- Identity images were never removable (0009: evidence). The retention schedule deletes them 30 days
-- after their check was decided, keeping the check and its outcome; erasure removes them too. Both
-- say so for their own transaction only (set_config('provee.erasing', 'on', true)); any other
-- update or delete is still refused.
CREATE OR REPLACE FUNCTION identity_documents_keep_unless_erasing() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('provee.erasing', true), '') = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is evidence: % refused', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "identity_documents_no_update_or_delete" ON "identity_documents";
--> statement-breakpoint
CREATE TRIGGER identity_documents_no_update_or_delete
  BEFORE UPDATE OR DELETE ON identity_documents
  FOR EACH ROW EXECUTE FUNCTION identity_documents_keep_unless_erasing();
--> statement-breakpoint
-- The schedule (docs/PRIVACY.md). Legal minimum of signed contracts and their consent records:
-- Mexico, Código de Comercio art. 38 (ten years); the Dominican Republic, ten years as well (see
-- docs/PRIVACY.md for the sources an operator must confirm). 3653 days: ten years with leap days.
INSERT INTO "retention_rules" ("name", "country", "position", "applies_to", "counted_from", "age_days", "action", "legal_basis") VALUES
	('sms-outbox-24h', NULL, 10, 'sms-outbox', 'message-sent', 1, 'delete-rows', 'Simulador de SMS: guarda códigos y enlaces en claro; no hay base para conservarlos.'),
	('identity-photos-30d-after-decision', NULL, 20, 'decided-identity-documents', 'verification-decision', 30, 'delete-files', 'Minimización: el resultado de la verificación basta una vez decidida.'),
	('abandoned-before-consent-90d', NULL, 30, 'abandoned-before-consent', 'last-activity', 90, 'erase-application', 'Consentimiento: la solicitud se abandonó antes de autorizar la consulta al buró.'),
	('rejected-180d', NULL, 40, 'rejected-application', 'rejection', 180, 'erase-application', 'Interés legítimo: atender aclaraciones sobre el rechazo durante seis meses.'),
	('signed-contract-legal-minimum', 'mx', 50, 'signed-contract', 'last-signature', 3653, 'erase-application', 'Obligación legal: Código de Comercio, art. 38 (diez años).'),
	('signed-contract-legal-minimum', 'do', 50, 'signed-contract', 'last-signature', 3653, 'erase-application', 'Obligación legal: conservación de diez años (ver docs/PRIVACY.md).');
