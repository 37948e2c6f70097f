CREATE TABLE "catalog_seeds" (
	"name" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "business_addresses" ADD COLUMN "neighborhood_typed" boolean DEFAULT false NOT NULL;