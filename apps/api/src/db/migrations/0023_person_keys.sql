CREATE TABLE "person_keys" (
	"person_id" uuid PRIMARY KEY NOT NULL,
	"wrapped_key" text,
	"wrapped_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"destroyed_at" timestamp with time zone,
	CONSTRAINT "person_keys_destroyed_check" CHECK (("person_keys"."wrapped_key" is null) = ("person_keys"."destroyed_at" is not null))
);
