-- Consents and credit decisions are evidence: the database refuses to change or remove them.
-- The guard function of migration 0001 now names the table it protects.
CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bureau_consents_no_update_or_delete
  BEFORE UPDATE OR DELETE ON bureau_consents
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER bureau_consents_no_truncate
  BEFORE TRUNCATE ON bureau_consents
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER credit_decisions_no_update_or_delete
  BEFORE UPDATE OR DELETE ON credit_decisions
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER credit_decisions_no_truncate
  BEFORE TRUNCATE ON credit_decisions
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
