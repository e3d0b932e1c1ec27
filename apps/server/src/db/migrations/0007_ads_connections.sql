ALTER TABLE "monitors" ADD COLUMN "linked_monitor_id" uuid;--> statement-breakpoint
ALTER TABLE "oauth_bind_states" ADD COLUMN "code_verifier" text;--> statement-breakpoint
ALTER TABLE "provider_connections" ADD COLUMN "token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_linked_monitor_id_monitors_id_fk" FOREIGN KEY ("linked_monitor_id") REFERENCES "public"."monitors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitors_linked_monitor_id_idx" ON "monitors" USING btree ("linked_monitor_id") WHERE linked_monitor_id is not null;