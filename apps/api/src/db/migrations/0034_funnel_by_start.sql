-- The application's start and source beside its milestones (issue 35): the funnel reads a period's
-- milestones by start, without a join. Copied from the applications for the rows made before.
ALTER TABLE "application_milestones" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "application_milestones" ADD COLUMN "utm_source" text;--> statement-breakpoint
UPDATE "application_milestones" m SET "started_at" = u."created_at", "utm_source" = u."utm_source"
  FROM "users" u WHERE u."id" = m."application_id";--> statement-breakpoint
-- Applications are never deleted: a row without one would be a stray, read by no report.
DELETE FROM "application_milestones" WHERE "started_at" IS NULL;--> statement-breakpoint
ALTER TABLE "application_milestones" ALTER COLUMN "started_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "application_milestones_started_at_idx" ON "application_milestones" USING btree ("started_at");
