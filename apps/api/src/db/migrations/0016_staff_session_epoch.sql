ALTER TABLE "staff" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "epoch" integer DEFAULT 0 NOT NULL;