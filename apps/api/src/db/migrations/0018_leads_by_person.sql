CREATE INDEX "leads_phone_idx" ON "leads" USING btree ("shopkeeper_phone_e164","received_at","lead_id");--> statement-breakpoint
-- Issue 27: a person is one advisor task, their first lead. A task claimed or finished on a later
-- lead (one task per lead before) moves onto the first one: finished if any was, claimed as the
-- earliest claim, so the person neither shows again as new nor is taken twice.
INSERT INTO "advisor_tasks" ("source", "source_id", "claimed_by", "claimed_at", "done_by", "done_at", "note")
SELECT DISTINCT ON (ranked."first_id") 'lead', ranked."first_id", t."claimed_by", t."claimed_at", t."done_by", t."done_at", t."note"
FROM "advisor_tasks" t
JOIN (
  SELECT "lead_id", first_value("lead_id") OVER (
    PARTITION BY "shopkeeper_phone_e164" ORDER BY "received_at", "lead_id"
  ) AS "first_id"
  FROM "leads"
) ranked ON t."source" = 'lead' AND t."source_id" = ranked."lead_id"
WHERE ranked."lead_id" <> ranked."first_id"
ORDER BY ranked."first_id", t."done_at" IS NULL, t."claimed_at" NULLS LAST
ON CONFLICT ("source", "source_id") DO UPDATE SET
  "claimed_by" = coalesce("advisor_tasks"."claimed_by", excluded."claimed_by"),
  "claimed_at" = coalesce("advisor_tasks"."claimed_at", excluded."claimed_at"),
  "done_by" = coalesce("advisor_tasks"."done_by", excluded."done_by"),
  "done_at" = coalesce("advisor_tasks"."done_at", excluded."done_at"),
  "note" = coalesce("advisor_tasks"."note", excluded."note");
