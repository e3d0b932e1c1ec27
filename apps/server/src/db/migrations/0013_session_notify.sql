-- Tells every process (LISTEN vigil_sessions) that a session it may hold in its session cache changed, so that
-- the cache drops it (modules/sessions/session-cache.ts). The payload says what to drop: a session's token hash
-- when the session is deleted (logout, a password change or reset, a deleted user's cascade) or its token or
-- owner change; `user:<id>` when the user's monitor key, which every session answers with, changes; `*` when
-- the table is truncated. Last use (`last_used_at`, written once a minute) notifies nobody: each process checks
-- idleness on its own copy and reads the row again before ending a session for it.
CREATE FUNCTION vigil_notify_session_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_sessions', OLD.token_hash);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION vigil_notify_session_deleted();
--> statement-breakpoint
CREATE TRIGGER sessions_notify_update AFTER UPDATE OF token_hash, user_id ON sessions
  FOR EACH ROW WHEN (OLD.token_hash IS DISTINCT FROM NEW.token_hash OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION vigil_notify_session_deleted();
--> statement-breakpoint
CREATE FUNCTION vigil_notify_sessions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_sessions', '*');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_notify_sessions_truncated();
--> statement-breakpoint
CREATE FUNCTION vigil_notify_user_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_sessions', 'user:' || OLD.id::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_notify_sessions AFTER UPDATE OF monitor_key ON users
  FOR EACH ROW WHEN (OLD.monitor_key IS DISTINCT FROM NEW.monitor_key)
  EXECUTE FUNCTION vigil_notify_user_sessions();
