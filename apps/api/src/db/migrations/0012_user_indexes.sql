CREATE INDEX "advisor_events_user_idx" ON "advisor_events" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bureau_queries_user_idx" ON "bureau_queries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "credit_decisions_user_idx" ON "credit_decisions" USING btree ("user_id","created_at");