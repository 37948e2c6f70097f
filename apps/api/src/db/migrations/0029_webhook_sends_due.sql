-- The webhook sweep (every 10 minutes) looks for stalled sends across every endpoint: an index of
-- the pending ones only, so it reads a few rows however many sends were delivered before. This
-- migration's snapshot (meta/0029_snapshot.json) also carries the tables and indexes of 0023–0028,
-- written by hand, so `npm run db:generate` diffs against the schema as it is.
CREATE INDEX "webhook_sends_due_idx" ON "webhook_sends" USING btree ("next_attempt_at") WHERE "webhook_sends"."status" = 'PENDING';
