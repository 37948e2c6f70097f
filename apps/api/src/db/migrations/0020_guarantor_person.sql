-- Issue 29: a guarantor's surnames apart and home address (encrypted), which Círculo de Crédito files
-- people by (guarantors named before have their full name only), and the person a query asked about
-- (encrypted) where a NIP audit is owed, so the audit sends the person as asked.
ALTER TABLE "avals" ADD COLUMN "given_names" text;--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "lastname" text;--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "maternal_lastname" text;--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "address_encrypted" text;--> statement-breakpoint
ALTER TABLE "bureau_queries" ADD COLUMN "subject_encrypted" text;
