-- A person's requests over their data (issue 31: ARCO / Ley 172-13). No foreign key to users: an
-- erasure may remove the application's row, and the request must outlive it as the record of
-- what was asked and answered (it holds ids, the folio and the reason, not the person's data).
CREATE SEQUENCE "privacy_request_folio_seq";
--> statement-breakpoint
CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"folio" text NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"field" text,
	"state" text DEFAULT 'RECEIVED' NOT NULL,
	"country" text NOT NULL,
	"deadline" date NOT NULL,
	"refusal_reason" text,
	"resolution" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "privacy_requests_folio_unique" UNIQUE("folio"),
	CONSTRAINT "privacy_requests_kind_check" CHECK ("privacy_requests"."kind" in ('access', 'rectification', 'cancellation', 'opposition')),
	CONSTRAINT "privacy_requests_state_check" CHECK ("privacy_requests"."state" in ('RECEIVED', 'IN_PROGRESS', 'DONE', 'REFUSED')),
	CONSTRAINT "privacy_requests_refusal_check" CHECK ("privacy_requests"."state" <> 'REFUSED' OR "privacy_requests"."refusal_reason" IS NOT NULL)
);
--> statement-breakpoint
-- One open request per person and kind: a second one is a 409, even from two tabs at once.
CREATE UNIQUE INDEX "privacy_requests_one_open_idx" ON "privacy_requests" USING btree ("application_id","kind") WHERE "privacy_requests"."state" in ('RECEIVED', 'IN_PROGRESS');
--> statement-breakpoint
CREATE INDEX "privacy_requests_application_idx" ON "privacy_requests" USING btree ("application_id");
--> statement-breakpoint
-- The staff queue reads open requests by deadline.
CREATE INDEX "privacy_requests_deadline_idx" ON "privacy_requests" USING btree ("deadline") WHERE "privacy_requests"."state" in ('RECEIVED', 'IN_PROGRESS');
