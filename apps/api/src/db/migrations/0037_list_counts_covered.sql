-- The back office's list by start counts its matches (up to its cap) in one range of the start
-- index, whatever other filter is set: the filters' columns ride in the index (INCLUDE), so a range
-- of start days with a status or a source is an index-only scan, not a bitmap over every row of that
-- status or source (issue 35: at a million applications, a week of starts waiting 52 → 2 ms). The
-- key stays (created_at, id) for the keyset pages. Written by hand: Drizzle's index builder has no
-- INCLUDE (schema.ts says so).
DROP INDEX "users_created_at_idx";--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id") INCLUDE ("status","next_step","utm_source","utm_name");
