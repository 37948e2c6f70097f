-- The failed calls the web app reports (client_errors: the call, its code, the browser and the IP)
-- are tied to no application, so no erasure reaches them, and the data map promised a term no rule
-- kept (issue 31). They serve diagnosis: an operator reads a week or two back at most. The schedule
-- deletes them at 30 days (modules/privacy/retention-run.ts, decision 033).
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_applies_to_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_applies_to_check" CHECK ("retention_rules"."applies_to" in ('abandoned-before-consent', 'inactive-after-consent', 'rejected-application', 'decided-identity-documents', 'signed-contract', 'consent-records', 'sms-outbox', 'phone-proof', 'client-errors'));
--> statement-breakpoint
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_counted_from_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_counted_from_check" CHECK ("retention_rules"."counted_from" in ('last-activity', 'rejection', 'verification-decision', 'last-signature', 'consent-given', 'message-sent', 'proof-started', 'error-reported'));
--> statement-breakpoint
-- The rule's batches walk the reports by their date.
CREATE INDEX "client_errors_created_idx" ON "client_errors" USING btree ("created_at");
--> statement-breakpoint
INSERT INTO "retention_rules" ("name", "country", "position", "applies_to", "counted_from", "age_days", "action", "legal_basis") VALUES
	('client-errors-30d', NULL, 17, 'client-errors', 'error-reported', 30, 'delete-rows', 'Interés legítimo: diagnosticar las fallas que reporta la aplicación. A los 30 días ya no sirven para corregirlas.');
