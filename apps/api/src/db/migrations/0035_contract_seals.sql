CREATE TABLE "contract_seals" (
	"contract_id" uuid PRIMARY KEY NOT NULL,
	"certificate_name" text NOT NULL,
	"certificate_sha256" text NOT NULL,
	"development" boolean NOT NULL,
	"sealed_at" timestamp with time zone NOT NULL,
	"sealed_sha256" text NOT NULL,
	"timestamp_status" text NOT NULL,
	"timestamp_attempts" integer DEFAULT 0 NOT NULL,
	"timestamp_error" text,
	"timestamp_authority" text,
	"timestamp_time" timestamp with time zone,
	"timestamp_serial" text,
	"timestamped_at" timestamp with time zone,
	"nom151_status" text NOT NULL,
	"nom151_provider" text,
	"nom151_reference" text,
	"nom151_record" "bytea",
	"nom151_sha256" text,
	"nom151_issued_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contract_seals_timestamp_status_check" CHECK ("contract_seals"."timestamp_status" in ('waiting', 'stamped')),
	CONSTRAINT "contract_seals_nom151_status_check" CHECK ("contract_seals"."nom151_status" in ('not_required', 'waiting', 'issued'))
);
--> statement-breakpoint
ALTER TABLE "contract_seals" ADD CONSTRAINT "contract_seals_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_seals_waiting_idx" ON "contract_seals" USING btree ("sealed_at") WHERE "contract_seals"."timestamp_status" = 'waiting' or "contract_seals"."nom151_status" = 'waiting';