CREATE TABLE "phone_usage" (
	"user_id" uuid NOT NULL,
	"month" text NOT NULL,
	"channel" text NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"warned_at" timestamp with time zone,
	CONSTRAINT "phone_usage_user_id_month_channel_pk" PRIMARY KEY("user_id","month","channel")
);
--> statement-breakpoint
CREATE TABLE "sms_opt_outs" (
	"phone" text PRIMARY KEY NOT NULL,
	"opted_out_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "fallback_for" text;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "phone_usage" ADD CONSTRAINT "phone_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_attempts_provider_idx" ON "delivery_attempts" USING btree ("provider_id") WHERE provider_id is not null;