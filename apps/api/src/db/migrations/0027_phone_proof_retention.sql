-- The phone-proof rows the data map names `phone-proof-24h` (issue 31): one-time codes (only their
-- hash, but the number they went to), the starts of each proof (number and IP) and the reverse-OTP
-- sessions (numbers, browser id, IPs). They exist for the proof and its limits; the longest window
-- any limit counts them over is one hour (CODE_MAX_PER_HOUR, SMS_NUMBERS_PER_IP_PER_HOUR, and the
-- resend interval and both TTLs, whose configuration caps them at 3600 s), and a verified session
-- is exchanged for a token at most one TTL after its answer. At a day old no limit or proof reads
-- them any more, so the schedule deletes them (modules/privacy/retention-run.ts, decision 033).
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_applies_to_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_applies_to_check" CHECK ("retention_rules"."applies_to" in ('abandoned-before-consent', 'rejected-application', 'decided-identity-documents', 'signed-contract', 'sms-outbox', 'phone-proof'));
--> statement-breakpoint
ALTER TABLE "retention_rules" DROP CONSTRAINT "retention_rules_counted_from_check";
--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_counted_from_check" CHECK ("retention_rules"."counted_from" in ('last-activity', 'rejection', 'verification-decision', 'last-signature', 'message-sent', 'proof-started'));
--> statement-breakpoint
-- The rule's batches walk each table by its creation time; without these a batch on a large table
-- would read all of it (the existing indexes lead with the phone or the IP).
CREATE INDEX "phone_codes_created_idx" ON "phone_codes" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "phone_proof_starts_created_idx" ON "phone_proof_starts" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "reverse_otp_sessions_created_idx" ON "reverse_otp_sessions" USING btree ("created_at");
--> statement-breakpoint
INSERT INTO "retention_rules" ("name", "country", "position", "applies_to", "counted_from", "age_days", "action", "legal_basis") VALUES
	('phone-proof-24h', NULL, 15, 'phone-proof', 'proof-started', 1, 'delete-rows', 'Interés legítimo: verificar el celular y limitar los intentos. El límite más largo cuenta una hora; a las 24 horas ninguna fila sirve ya a un límite ni a una verificación.');
