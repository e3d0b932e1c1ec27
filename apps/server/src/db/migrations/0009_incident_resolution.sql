ALTER TABLE "incidents" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolution_note" text;--> statement-breakpoint
UPDATE "incidents" SET "resolved_by" = 'check' WHERE "state" = 'resolved';