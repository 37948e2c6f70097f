CREATE TABLE "credit_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"number" integer NOT NULL,
	"label" text NOT NULL,
	"document" jsonb NOT NULL,
	"status" text NOT NULL,
	"based_on" uuid,
	"author" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" text,
	CONSTRAINT "credit_policies_status_check" CHECK ("credit_policies"."status" in ('DRAFT', 'PUBLISHED', 'DISCARDED')),
	CONSTRAINT "credit_policies_published_check" CHECK ("credit_policies"."status" <> 'PUBLISHED' OR ("credit_policies"."published_at" IS NOT NULL AND "credit_policies"."published_by" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "credit_policy_backtests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"policy_id" uuid NOT NULL,
	"requested_by" text NOT NULL,
	"params" jsonb NOT NULL,
	"status" text NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"total" integer NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "credit_policy_backtests_status_check" CHECK ("credit_policy_backtests"."status" in ('RUNNING', 'DONE', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "credit_policy_live" (
	"country" text PRIMARY KEY NOT NULL,
	"policy_id" uuid NOT NULL,
	"shadow_policy_id" uuid,
	"changed_at" timestamp with time zone NOT NULL,
	"changed_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_shadow_decisions" (
	"decision_id" uuid PRIMARY KEY NOT NULL,
	"policy_id" uuid NOT NULL,
	"result" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_policy_backtests" ADD CONSTRAINT "credit_policy_backtests_policy_id_credit_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."credit_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_policy_live" ADD CONSTRAINT "credit_policy_live_policy_id_credit_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."credit_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_policy_live" ADD CONSTRAINT "credit_policy_live_shadow_policy_id_credit_policies_id_fk" FOREIGN KEY ("shadow_policy_id") REFERENCES "public"."credit_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_shadow_decisions" ADD CONSTRAINT "credit_shadow_decisions_decision_id_credit_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."credit_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_shadow_decisions" ADD CONSTRAINT "credit_shadow_decisions_policy_id_credit_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."credit_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_policies_number" ON "credit_policies" USING btree ("country","number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_policies_label" ON "credit_policies" USING btree ("country","label");--> statement-breakpoint
CREATE INDEX "credit_policy_backtests_policy_idx" ON "credit_policy_backtests" USING btree ("policy_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_shadow_decisions_policy_idx" ON "credit_shadow_decisions" USING btree ("policy_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_decisions_created_idx" ON "credit_decisions" USING btree ("created_at","id") WHERE "credit_decisions"."aval_id" IS NULL;--> statement-breakpoint
-- A published version is immutable (issue 33): the database refuses any change of its document,
-- label, number, country, author or publication (the four eyes' evidence), any move back out of
-- PUBLISHED, and its deletion, whatever code runs.
CREATE FUNCTION credit_policies_published_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status = 'PUBLISHED' THEN
      RAISE EXCEPTION 'credit policy % is published and cannot be deleted', OLD.id USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status = 'PUBLISHED' AND (NEW.status <> 'PUBLISHED' OR NEW.document <> OLD.document OR NEW.label <> OLD.label
      OR NEW.number <> OLD.number OR NEW.country <> OLD.country OR NEW.author <> OLD.author
      OR NEW.published_by IS DISTINCT FROM OLD.published_by OR NEW.published_at IS DISTINCT FROM OLD.published_at) THEN
    RAISE EXCEPTION 'credit policy % is published and cannot change', OLD.id USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER credit_policies_published_immutable BEFORE UPDATE OR DELETE ON credit_policies
  FOR EACH ROW EXECUTE FUNCTION credit_policies_published_immutable();
