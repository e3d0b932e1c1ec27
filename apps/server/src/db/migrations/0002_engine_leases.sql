ALTER TABLE "alert_deliveries" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "alert_deliveries_unqueued_idx" ON "alert_deliveries" USING btree ("created_at") WHERE queued_at is null and status = 'pending';