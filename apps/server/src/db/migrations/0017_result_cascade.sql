-- A check result no longer has a foreign key to its monitor: the key's check looked the monitor up, and locked
-- its row, for every result written, a tenth of the engine's write on either database. Nothing is lost by it:
-- the engine inserts a result only in the statement that moves its monitor's row on (engine/check.repository.ts),
-- so the monitor is there and locked until the result is committed. What the key's cascade did, this trigger
-- does, once per statement for every monitor it deleted (a person's, a user's whole account through its cascade).
ALTER TABLE "check_results" DROP CONSTRAINT "check_results_monitor_id_monitors_id_fk";--> statement-breakpoint
CREATE FUNCTION vigil_delete_check_results() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM check_results WHERE monitor_id IN (SELECT id FROM deleted_monitors);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER monitors_delete_results AFTER DELETE ON monitors
  REFERENCING OLD TABLE AS deleted_monitors
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_delete_check_results();
