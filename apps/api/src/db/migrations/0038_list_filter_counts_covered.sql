-- The back office's list with two filters (a next step and a source, say) counts its matches (up to
-- its cap) in one index alone: each filter's index carries the other filters' columns (INCLUDE), so
-- the count is an index-only range of the first filter checked on the others, not a scan of the
-- table (issue 35: at a million applications, a next step and a source took 77–140 ms as a parallel
-- sequential scan). The keys stay (filter, updated_at, id) for the pages by last activity. Written by
-- hand: Drizzle's index builder has no INCLUDE (schema.ts says so).
DROP INDEX "users_status_recent_idx";--> statement-breakpoint
CREATE INDEX "users_status_recent_idx" ON "users" USING btree ("status","updated_at","id") INCLUDE ("next_step","utm_source","utm_name");--> statement-breakpoint
DROP INDEX "users_next_step_recent_idx";--> statement-breakpoint
CREATE INDEX "users_next_step_recent_idx" ON "users" USING btree ("next_step","updated_at","id") INCLUDE ("status","utm_source","utm_name");--> statement-breakpoint
DROP INDEX "users_utm_source_recent_idx";--> statement-breakpoint
CREATE INDEX "users_utm_source_recent_idx" ON "users" USING btree ("utm_source","updated_at","id") INCLUDE ("status","next_step","utm_name");--> statement-breakpoint
DROP INDEX "users_utm_name_recent_idx";--> statement-breakpoint
CREATE INDEX "users_utm_name_recent_idx" ON "users" USING btree ("utm_name","updated_at","id") INCLUDE ("status","next_step","utm_source");
