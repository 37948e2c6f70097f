ALTER TABLE "avals" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "status" text DEFAULT 'PENDING' NOT NULL;--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "tax_id_encrypted" text;--> statement-breakpoint
ALTER TABLE "avals" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "bureau_consents" ADD COLUMN "aval_id" uuid;--> statement-breakpoint
ALTER TABLE "credit_decisions" ADD COLUMN "aval_id" uuid;--> statement-breakpoint
ALTER TABLE "reverse_otp_sessions" ADD COLUMN "aval_id" uuid;--> statement-breakpoint
ALTER TABLE "bureau_consents" ADD CONSTRAINT "bureau_consents_aval_id_avals_id_fk" FOREIGN KEY ("aval_id") REFERENCES "public"."avals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_decisions" ADD CONSTRAINT "credit_decisions_aval_id_avals_id_fk" FOREIGN KEY ("aval_id") REFERENCES "public"."avals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reverse_otp_sessions" ADD CONSTRAINT "reverse_otp_sessions_aval_id_avals_id_fk" FOREIGN KEY ("aval_id") REFERENCES "public"."avals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "avals_one_active_per_type" ON "avals" USING btree ("user_id","aval_type") WHERE "avals"."status" <> 'REPLACED';--> statement-breakpoint
ALTER TABLE "avals" ADD CONSTRAINT "avals_status_check" CHECK ("status" IN ('PENDING', 'CONSENTED', 'APPROVED', 'REFUSED', 'REPLACED'));--> statement-breakpoint
ALTER TABLE "avals" ADD CONSTRAINT "avals_type_check" CHECK ("aval_type" IN ('PARTNER', 'COLLATERAL'));
