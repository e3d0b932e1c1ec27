DROP INDEX "monitors_user_id_created_at_idx";--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "tally_hour" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "tally_checks" smallint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "tally_failures" smallint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "monitors_user_id_created_at_idx" ON "monitors" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- Monitors checked before this migration: their hourly tallies from the raw results of the current UTC hour
-- and the 23 before it, as the engine would have counted them.
WITH per_hour AS (
	SELECT monitor_id, date_trunc('hour', checked_at, 'UTC') AS hour, count(*) AS checks,
		count(*) FILTER (WHERE NOT ok) AS failures
	FROM check_results
	WHERE checked_at >= date_trunc('hour', now(), 'UTC') - interval '23 hours'
	GROUP BY 1, 2
), newest AS (
	SELECT monitor_id, max(hour) AS hour FROM per_hour GROUP BY 1
), tallies AS (
	SELECT n.monitor_id, n.hour,
		array_agg(coalesce(p.checks, 0)::smallint ORDER BY i) AS checks,
		array_agg(coalesce(p.failures, 0)::smallint ORDER BY i) AS failures
	FROM newest AS n
		CROSS JOIN generate_series(0, 23) AS i
		LEFT JOIN per_hour AS p ON p.monitor_id = n.monitor_id AND p.hour = n.hour - i * interval '1 hour'
	GROUP BY n.monitor_id, n.hour
)
UPDATE monitors AS m SET tally_hour = t.hour, tally_checks = t.checks, tally_failures = t.failures
FROM tallies AS t
WHERE m.id = t.monitor_id;
