-- Hand-written: drizzle-kit cannot express partitioning. It generated the snapshot (no id, primary key on
-- monitor_id + slot_at, the check_result_partitions table); the SQL below reaches the same columns and keys
-- with check_results partitioned by range of slot_at. Every existing row is kept without being copied: the
-- old table becomes the first partition, covering everything before the next whole hour (or its newest
-- slot), and retention drops it whole once that bound is past. What is locked and for how long:
-- docs/ARCHITECTURE.md, "Results in time partitions".
ALTER TABLE "check_results" RENAME TO "check_results_legacy";--> statement-breakpoint
ALTER INDEX "check_results_monitor_slot_idx" RENAME TO "check_results_legacy_monitor_slot_idx";--> statement-breakpoint
ALTER TABLE "check_results_legacy" RENAME CONSTRAINT "check_results_monitor_id_monitors_id_fk" TO "check_results_legacy_monitor_id_fk";--> statement-breakpoint
-- The partitioned table has no checked_at index (the roll-up reads slot_at through partition pruning), but
-- the old table keeps its own until it is dropped: it cannot be pruned while the roll-up's hours reach into it
-- (about 3 hours after the upgrade), and the roll-up's redundant checked_at filter then reads it by this index
-- rather than whole.
ALTER INDEX "check_results_checked_at_idx" RENAME TO "check_results_legacy_checked_at_idx";--> statement-breakpoint
-- Dropping a column only marks it dropped (no rewrite); its identity sequence goes with it.
ALTER TABLE "check_results_legacy" DROP COLUMN "id";--> statement-breakpoint
-- The columns are already NOT NULL and the index already unique: no scan, no build.
ALTER TABLE "check_results_legacy" ADD CONSTRAINT "check_results_legacy_pkey" PRIMARY KEY USING INDEX "check_results_legacy_monitor_slot_idx";--> statement-breakpoint
CREATE TABLE "check_result_partitions" (
	"name" text PRIMARY KEY NOT NULL,
	"from_at" timestamp with time zone,
	"to_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- The one scan of the old rows: validating a CHECK on its bound, so ATTACH below trusts it and scans nothing.
-- It runs before the foreign key on the new table is made, which locks monitors against updates until the
-- end. The bound is the next whole hour: the engine writes no slot later than now. Should a row lie beyond
-- it (a clock far off), the CHECK fails and a second scan finds the newest slot. An empty old table (a new
-- database) is simply dropped.
DO $$
DECLARE
	bound timestamptz := date_trunc('hour', now(), 'UTC') + interval '1 hour';
BEGIN
	IF NOT EXISTS (SELECT 1 FROM "check_results_legacy") THEN
		DROP TABLE "check_results_legacy";
		RETURN;
	END IF;
	BEGIN
		EXECUTE format('ALTER TABLE "check_results_legacy" ADD CONSTRAINT "check_results_legacy_bound" CHECK ("slot_at" < %L)', bound);
	EXCEPTION WHEN check_violation THEN
		SELECT date_trunc('hour', max("slot_at"), 'UTC') + interval '1 hour' INTO bound FROM "check_results_legacy";
		EXECUTE format('ALTER TABLE "check_results_legacy" ADD CONSTRAINT "check_results_legacy_bound" CHECK ("slot_at" < %L)', bound);
	END;
	INSERT INTO "check_result_partitions" ("name", "from_at", "to_at") VALUES ('check_results_legacy', NULL, bound);
END
$$;
--> statement-breakpoint
CREATE TABLE "check_results" (
	"monitor_id" uuid NOT NULL,
	"slot_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"response_ms" integer,
	"status_code" integer,
	"failed_conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	CONSTRAINT "check_results_monitor_id_slot_at_pk" PRIMARY KEY("monitor_id","slot_at")
) PARTITION BY RANGE ("slot_at");
--> statement-breakpoint
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Catches a result no partition covers, so none is ever refused; maintenance moves such rows out.
CREATE TABLE "check_results_default" PARTITION OF "check_results" DEFAULT;--> statement-breakpoint
-- The old table becomes the partition below its bound; its primary key index and foreign key are taken over
-- as the partitioned table's, not built again.
DO $$
DECLARE
	bound timestamptz;
BEGIN
	SELECT "to_at" INTO bound FROM "check_result_partitions" WHERE "name" = 'check_results_legacy';
	IF bound IS NOT NULL THEN
		EXECUTE format('ALTER TABLE "check_results" ATTACH PARTITION "check_results_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', bound);
	END IF;
END
$$;
