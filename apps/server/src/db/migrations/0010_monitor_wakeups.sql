-- Wakes the check engine of every process (LISTEN vigil_monitors) when a monitor may have come due sooner than
-- its workers planned to look: created, resumed, its next slot moved earlier (Check now, an interval change, a
-- provider webhook's re-check), or a slot given back due (a worker stopping, a re-check asked for while it was
-- held). The engine's own writes move slots later, so they notify nobody. The payload is empty so that
-- PostgreSQL folds the notifications of one transaction into one.
CREATE FUNCTION vigil_notify_monitors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_monitors', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER monitors_wakeup_insert AFTER INSERT ON monitors
  FOR EACH ROW WHEN (NEW.paused = false) EXECUTE FUNCTION vigil_notify_monitors();
--> statement-breakpoint
CREATE TRIGGER monitors_wakeup_update AFTER UPDATE OF paused, next_check_at, claimed_until ON monitors
  FOR EACH ROW WHEN (NEW.paused = false AND (
    OLD.paused
    OR NEW.next_check_at < OLD.next_check_at
    OR (OLD.claimed_until IS NOT NULL AND NEW.claimed_until IS NULL AND NEW.next_check_at <= now())))
  EXECUTE FUNCTION vigil_notify_monitors();
