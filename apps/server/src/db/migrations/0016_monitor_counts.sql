CREATE TABLE "monitor_counts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"monitors" integer NOT NULL
);
--> statement-breakpoint
-- Kept by a trigger on monitor_order, itself kept by triggers on monitors (0012), so every way a monitor comes or
-- goes keeps the count in step, in the same transaction. A user's concurrent creates wait on their count's row.
CREATE FUNCTION vigil_monitor_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO monitor_counts (user_id, monitors) VALUES (NEW.user_id, 1)
      ON CONFLICT (user_id) DO UPDATE SET monitors = monitor_counts.monitors + 1;
  ELSE
    UPDATE monitor_counts SET monitors = monitors - 1 WHERE user_id = OLD.user_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER monitor_order_count AFTER INSERT OR DELETE ON monitor_order
  FOR EACH ROW EXECUTE FUNCTION vigil_monitor_count();
--> statement-breakpoint
INSERT INTO monitor_counts (user_id, monitors) SELECT user_id, count(*) FROM monitor_order GROUP BY user_id;
