-- The back office's list, given a range of start days, pages latest started first by keyset on
-- (created_at, id) (issue 35); the funnel's count of who started reads the same index.
DROP INDEX "users_created_at_idx";--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");
