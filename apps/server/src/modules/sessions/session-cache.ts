import { SESSIONS_CHANNEL, type Wakeups } from '../../db/wakeups.ts';
import type { SessionWithUser } from './session.repository.ts';

/** Sessions held at most (a few MB); past it the entry kept longest goes. */
export const SESSION_CACHE_ENTRIES = 10_000;

/**
 * How long an entry is served before its row is read again. A deletion or a change reaches the cache by NOTIFY
 * within milliseconds; this bounds only what a notification cannot cover: a listening connection that died
 * without a sign (a network partition sends no reset, and TCP keepalive notices after hours). Half a minute
 * costs one lookup per active session and process twice a minute, so nearly every request still hits.
 */
export const SESSION_CACHE_MAX_AGE_MS = 30_000;

/**
 * This process's copies of sessions, keyed by token hash, so that a signed-in request needs no lookup. Every
 * process hears of deleted and changed sessions on `vigil_sessions` (migration 0013_session_notify) and drops
 * them; while notifications may be missed (the listening connection is lost) it serves nothing and keeps
 * nothing, so a session ended anywhere is never accepted here after the notification could have arrived.
 */
export interface SessionCache {
  /** The session of a token hash, if held, fresh and notifications arrive. */
  get(tokenHash: string): SessionWithUser | undefined;
  /** Reads the session and keeps it, unless it may have been deleted or changed while it was being read. */
  load(
    tokenHash: string,
    read: () => Promise<SessionWithUser | undefined>,
  ): Promise<SessionWithUser | undefined>;
  /** Records a last use this process wrote (other processes' uses are not announced). */
  touched(tokenHash: string, at: Date): void;
  /** Drops the sessions that match, at once (this process deleted them; the others hear the trigger's NOTIFY). */
  forget(match: (session: SessionWithUser) => boolean): void;
  close(): void;
}

interface Entry {
  session: SessionWithUser;
  /** When, on `now()`'s scale, the entry stops being served. */
  staleAt: number;
}

export async function createSessionCache(deps: {
  wakeups: Wakeups;
  maxEntries?: number;
  maxAgeMs?: number;
  /** Milliseconds on a steady scale; entries age in real time, whatever the service's clock says. */
  now?: () => number;
}): Promise<SessionCache> {
  const { wakeups } = deps;
  const maxEntries = deps.maxEntries ?? SESSION_CACHE_ENTRIES;
  const maxAgeMs = deps.maxAgeMs ?? SESSION_CACHE_MAX_AGE_MS;
  const now = deps.now ?? (() => performance.now());
  // A Map iterates in insertion order, and entries are put back when read again from the database, so the
  // first key is the entry kept longest.
  const entries = new Map<string, Entry>();
  /**
   * Bumped by every notification, loss and forgetting: a read that started before it may have returned a row
   * deleted meanwhile, and is not kept.
   */
  let generation = 0;
  /** Whether notifications arrive; only then is anything served or kept. */
  let live = false;

  function drop(match?: (session: SessionWithUser) => boolean): void {
    generation += 1;
    if (!match) {
      entries.clear();
      return;
    }
    // A scan: forgetting by user or session is rare (logout, a password change), lookups are not.
    for (const [tokenHash, entry] of entries) if (match(entry.session)) entries.delete(tokenHash);
  }

  const unlisten = await wakeups.listen(
    SESSIONS_CHANNEL,
    (payload) => {
      if (payload === null) {
        // Back after a loss: what was missed is unknown, so nothing held before counts.
        drop();
        live = wakeups.isListening(SESSIONS_CHANNEL);
      } else if (payload === '*') {
        drop();
      } else if (payload.startsWith('user:')) {
        const userId = payload.slice('user:'.length);
        drop((session) => session.userId === userId);
      } else {
        generation += 1;
        entries.delete(payload);
      }
    },
    {
      onLost() {
        live = false;
        drop();
      },
    },
  );
  live = wakeups.isListening(SESSIONS_CHANNEL);

  return {
    get(tokenHash) {
      if (!live) return undefined;
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (now() < entry.staleAt) return entry.session;
      entries.delete(tokenHash);
      return undefined;
    },

    async load(tokenHash, read) {
      const before = generation;
      const session = await read();
      if (session && live && generation === before) {
        entries.delete(tokenHash);
        entries.set(tokenHash, { session, staleAt: now() + maxAgeMs });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return session;
    },

    touched(tokenHash, at) {
      const entry = entries.get(tokenHash);
      if (entry && at > entry.session.lastUsedAt) entry.session = { ...entry.session, lastUsedAt: at };
    },

    forget: drop,

    close() {
      unlisten();
      live = false;
      drop();
    },
  };
}
