-- The browser's reverse-OTP session key is stored only as its SHA-256 (issue 13, suite 7). Sessions
-- opened before this migration used their id as the key: their hash is the id's.
ALTER TABLE "reverse_otp_sessions" ADD COLUMN "key_hash" text;--> statement-breakpoint
UPDATE "reverse_otp_sessions" SET "key_hash" = encode(sha256(convert_to("id"::text, 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "reverse_otp_sessions" ALTER COLUMN "key_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reverse_otp_sessions" ADD CONSTRAINT "reverse_otp_sessions_key_hash_unique" UNIQUE("key_hash");
