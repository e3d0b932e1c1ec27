CREATE TABLE "rollup_progress" (
	"source" text PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL
);
