CREATE TABLE "monitor_order" (
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"monitor_id" uuid NOT NULL,
	CONSTRAINT "monitor_order_user_id_created_at_monitor_id_pk" PRIMARY KEY("user_id","created_at","monitor_id")
);
--> statement-breakpoint
-- Kept by triggers, so every way a monitor comes or goes (the API, a user's deletion cascading, a script) keeps
-- the list in step, in the same transaction.
CREATE FUNCTION vigil_monitor_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM monitor_order
      WHERE user_id = OLD.user_id AND created_at = OLD.created_at AND monitor_id = OLD.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO monitor_order (user_id, created_at, monitor_id) VALUES (NEW.user_id, NEW.created_at, NEW.id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER monitors_order_insert_delete AFTER INSERT OR DELETE ON monitors
  FOR EACH ROW EXECUTE FUNCTION vigil_monitor_order();
--> statement-breakpoint
CREATE TRIGGER monitors_order_update AFTER UPDATE OF user_id, created_at, id ON monitors
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION vigil_monitor_order();
--> statement-breakpoint
INSERT INTO monitor_order (user_id, created_at, monitor_id) SELECT user_id, created_at, id FROM monitors;
