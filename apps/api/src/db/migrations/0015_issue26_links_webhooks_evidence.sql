CREATE TABLE "webhook_deliveries" (
	"provider" text NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bureau_consents" ADD COLUMN "peer_ip" text;--> statement-breakpoint
ALTER TABLE "bureau_consents" ADD COLUMN "forwarded_for" text;--> statement-breakpoint
ALTER TABLE "contract_links" ADD COLUMN "token_sha256" text;--> statement-breakpoint
ALTER TABLE "contract_links" ADD COLUMN "purpose" text DEFAULT 'sign' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_key" ON "webhook_deliveries" USING btree ("provider","delivery_id");--> statement-breakpoint
CREATE INDEX "avals_phone_idx" ON "avals" USING btree ("phone_e164");--> statement-breakpoint
ALTER TABLE "contract_links" ADD CONSTRAINT "contract_links_token_sha256_unique" UNIQUE("token_sha256");--> statement-breakpoint
ALTER TABLE "contract_links" ADD CONSTRAINT "contract_links_purpose_check" CHECK ("contract_links"."purpose" in ('sign', 'copy'));