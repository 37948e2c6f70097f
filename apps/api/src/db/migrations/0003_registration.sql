CREATE TABLE "business_addresses" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"zip_code" text NOT NULL,
	"state" text NOT NULL,
	"city" text NOT NULL,
	"neighborhood" text NOT NULL,
	"street_name" text NOT NULL,
	"street_number" text NOT NULL,
	"apartment_number" text,
	"municipality_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "businesses" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"business_type" text NOT NULL,
	"business_type_other" text,
	"sales_range_id" integer NOT NULL,
	"business_age_years" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_business_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_municipalities" (
	"id" serial PRIMARY KEY NOT NULL,
	"state_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"allowed" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_neighborhoods" (
	"id" serial PRIMARY KEY NOT NULL,
	"municipality_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"zip_code" text,
	"search_text" text NOT NULL,
	"name_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_sales_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"description" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_states" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lastname" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "maternal_lastname" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "dob_encrypted" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "length_of_residency_in_years" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "marital_status" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "anonymous_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "utm_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sales_identifier" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "flow_version_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tax_id_encrypted" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tax_id_hash" text;--> statement-breakpoint
ALTER TABLE "business_addresses" ADD CONSTRAINT "business_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_addresses" ADD CONSTRAINT "business_addresses_municipality_id_catalog_municipalities_id_fk" FOREIGN KEY ("municipality_id") REFERENCES "public"."catalog_municipalities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_sales_range_id_catalog_sales_ranges_id_fk" FOREIGN KEY ("sales_range_id") REFERENCES "public"."catalog_sales_ranges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_municipalities" ADD CONSTRAINT "catalog_municipalities_state_id_catalog_states_id_fk" FOREIGN KEY ("state_id") REFERENCES "public"."catalog_states"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_neighborhoods" ADD CONSTRAINT "catalog_neighborhoods_municipality_id_catalog_municipalities_id_fk" FOREIGN KEY ("municipality_id") REFERENCES "public"."catalog_municipalities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_business_types_name" ON "catalog_business_types" USING btree ("country","name");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_municipalities_code" ON "catalog_municipalities" USING btree ("state_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_neighborhoods_code" ON "catalog_neighborhoods" USING btree ("municipality_id","code");--> statement-breakpoint
CREATE INDEX "catalog_neighborhoods_zip" ON "catalog_neighborhoods" USING btree ("zip_code");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_sales_ranges_position" ON "catalog_sales_ranges" USING btree ("country","position");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_states_code" ON "catalog_states" USING btree ("country","code");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tax_id_hash_unique" UNIQUE("tax_id_hash");