CREATE TABLE "catalog_revision" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The one row, and nothing else: the revision is moved on, never inserted or removed by the app.
INSERT INTO "catalog_revision" ("id", "revision") VALUES (1, 0);
--> statement-breakpoint
ALTER TABLE "catalog_revision" ADD CONSTRAINT "catalog_revision_one_row" CHECK ("id" = 1);
--> statement-breakpoint
-- Any statement that writes a catalogue table moves the revision on, in the writer's transaction:
-- readers see the new number exactly when they can see the new rows.
CREATE FUNCTION catalog_revision_bump() RETURNS trigger AS $$
BEGIN
  UPDATE catalog_revision SET revision = revision + 1 WHERE id = 1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER catalog_states_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_states
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_revision_bump();
--> statement-breakpoint
CREATE TRIGGER catalog_municipalities_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_municipalities
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_revision_bump();
--> statement-breakpoint
CREATE TRIGGER catalog_neighborhoods_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_neighborhoods
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_revision_bump();
--> statement-breakpoint
CREATE TRIGGER catalog_business_types_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_business_types
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_revision_bump();
--> statement-breakpoint
CREATE TRIGGER catalog_sales_ranges_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_sales_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_revision_bump();
