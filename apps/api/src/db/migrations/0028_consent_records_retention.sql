-- Two gaps of the retention schedule (issue 31, decision 033, docs/PRIVACY.md).
--
-- 1. `consent-record-legal-minimum`: an erased application's consent records (bureau_consents: IP,
-- connection addresses, browser, the PIN's ciphertext; credit_decisions: the evaluation's inputs
-- and the pre-approved amount) were kept forever by their append-only triggers (0005). Once the
-- legal minimum counted from the consent's date has passed, the schedule clears those columns.
-- Clearing, not deleting: bureau_queries and credit_decisions reference the consent (foreign keys),
-- and the row's folio, text, hash and dates still prove which consent was given and when. The
-- triggers let exactly that update through, for a transaction that says so
-- (set_config('provee.erasing', 'on', true), as 0025 did for identity_documents); any other update,
-- any delete, and truncate are still refused.
CREATE OR REPLACE FUNCTION bureau_consents_keep_unless_term_passed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('provee.erasing', true), '') = 'on'
    AND NEW.ip = '' AND NEW.peer_ip IS NULL AND NEW.forwarded_for IS NULL
    AND NEW.user_agent IS NULL AND NEW.pin_encrypted IS NULL
    AND (to_jsonb(NEW) - ARRAY['ip', 'peer_ip', 'forwarded_for', 'user_agent', 'pin_encrypted'])
      = (to_jsonb(OLD) - ARRAY['ip', 'peer_ip', 'forwarded_for', 'user_agent', 'pin_encrypted']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "bureau_consents_no_update_or_delete" ON "bureau_consents";
--> statement-breakpoint
CREATE TRIGGER bureau_consents_no_update_or_delete
  BEFORE UPDATE OR DELETE ON bureau_consents
  FOR EACH ROW EXECUTE FUNCTION bureau_consents_keep_unless_term_passed();
--> statement-breakpoint
-- A decision's rules, result, policy version and currency stay: why it was decided, without the person.
CREATE OR REPLACE FUNCTION credit_decisions_keep_unless_term_passed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('provee.erasing', true), '') = 'on'
    AND NEW.inputs = '{}'::jsonb AND NEW.amount = 0
    AND (to_jsonb(NEW) - ARRAY['inputs', 'amount']) = (to_jsonb(OLD) - ARRAY['inputs', 'amount']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "credit_decisions_no_update_or_delete" ON "credit_decisions";
--> statement-breakpoint
CREATE TRIGGER credit_decisions_no_update_or_delete
  BEFORE UPDATE OR DELETE ON credit_decisions
  FOR EACH ROW EXECUTE FUNCTION credit_decisions_keep_unless_term_passed();
--> statement-breakpoint
-- The rule's batches walk the consents by their date.
CREATE INDEX "bureau_consents_created_idx" ON "bureau_consents" USING btree ("created_at");
--> statement-breakpoint
-- 2. `inactive-after-consent-365d`: an application that gave the bureau consent but was neither
-- rejected nor signed (pre-approved, then abandoned) matched no rule and was kept forever.
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_applies_to_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_applies_to_check" CHECK ("retention_rules"."applies_to" in ('abandoned-before-consent', 'inactive-after-consent', 'rejected-application', 'decided-identity-documents', 'signed-contract', 'consent-records', 'sms-outbox', 'phone-proof'));
--> statement-breakpoint
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_counted_from_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_counted_from_check" CHECK ("retention_rules"."counted_from" in ('last-activity', 'rejection', 'verification-decision', 'last-signature', 'consent-given', 'message-sent', 'proof-started'));
--> statement-breakpoint
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_action_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_action_check" CHECK ("retention_rules"."action" in ('erase-application', 'delete-files', 'delete-rows', 'clear-consent-records'));
--> statement-breakpoint
-- Consent records: the same ten years as signed contracts (Código de Comercio art. 38 in Mexico; the
-- Dominican term an operator confirms, docs/PRIVACY.md), counted from the consent's own date.
INSERT INTO "retention_rules" ("name", "country", "position", "applies_to", "counted_from", "age_days", "action", "legal_basis") VALUES
	('inactive-after-consent-365d', NULL, 35, 'inactive-after-consent', 'last-activity', 365, 'erase-application', 'Interés legítimo: la solicitud autorizó el buró pero no se firmó ni avanzó en un año.'),
	('consent-record-legal-minimum', 'mx', 60, 'consent-records', 'consent-given', 3653, 'clear-consent-records', 'Obligación legal: constancia del consentimiento, Código de Comercio, art. 38 (diez años).'),
	('consent-record-legal-minimum', 'do', 60, 'consent-records', 'consent-given', 3653, 'clear-consent-records', 'Obligación legal: constancia del consentimiento, diez años (ver docs/PRIVACY.md).');
