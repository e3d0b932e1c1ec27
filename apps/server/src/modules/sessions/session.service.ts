import { AppError } from '../../lib/app-error.ts';
import { type Clock, DAY_MS, MINUTE_MS } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/secrets.ts';
import type { SessionCache } from './session-cache.ts';
import type { SessionRepository, SessionWithUser } from './session.repository.ts';

/** Who is calling: set by the authenticate hook on routes that need a session. */
export interface AuthSession {
  sessionId: string;
  userId: string;
  monitorKey: string;
}

export const SESSION_ENDED = 'Your session has ended. Sign in again.';

// Refreshing last use on every request would be a write per request; once a minute is precise enough.
const TOUCH_INTERVAL_MS = MINUTE_MS;

/** The token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  const token = match ? match[1]! : value;
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : undefined;
}

export function createSessionService(deps: {
  sessions: SessionRepository;
  clock: Clock;
  ttlDays: number;
  /** This process's copies of sessions, so that most requests need no lookup. */
  cache: SessionCache;
}) {
  const { sessions, clock, cache } = deps;
  const ttlMs = deps.ttlDays * DAY_MS;

  async function find(tokenHash: string, now: Date): Promise<SessionWithUser | undefined> {
    const held = cache.get(tokenHash);
    // Another process may have used the session since it was read: a copy that looks idle too long is read
    // again before the session is ended for it.
    if (held && now.getTime() - held.lastUsedAt.getTime() <= ttlMs) return held;
    return cache.load(tokenHash, () => sessions.findByTokenHash(tokenHash));
  }

  /** Drops this process's copy of a session at once; other processes hear the deletion from the trigger. */
  const forgetSession = (sessionId: string) => cache.forget((session) => session.id === sessionId);

  return {
    /** Starts a session and returns its token, the only time the token exists outside the client. */
    async start(repo: SessionRepository, userId: string): Promise<string> {
      const token = randomToken(32);
      await repo.insert({ userId, tokenHash: sha256Hex(token), now: clock.now() });
      return token;
    },

    async authenticate(header: string | undefined): Promise<AuthSession> {
      const token = tokenFromHeader(header);
      if (!token) throw new AppError('UNAUTHORIZED', SESSION_ENDED);
      const tokenHash = sha256Hex(token);
      const now = clock.now();
      const session = await find(tokenHash, now);
      if (!session) throw new AppError('UNAUTHORIZED', SESSION_ENDED);
      const idleMs = now.getTime() - session.lastUsedAt.getTime();
      if (idleMs > ttlMs) {
        await sessions.delete(session.id);
        forgetSession(session.id);
        throw new AppError('UNAUTHORIZED', SESSION_ENDED);
      }
      if (idleMs >= TOUCH_INTERVAL_MS) {
        await sessions.touch(session.id, now);
        cache.touched(tokenHash, now);
      }
      return { sessionId: session.id, userId: session.userId, monitorKey: session.monitorKey };
    },

    async end(session: AuthSession): Promise<void> {
      await sessions.delete(session.sessionId);
      forgetSession(session.sessionId);
    },

    /**
     * Call after deleting sessions of a user in a transaction (a password change or reset), so that this
     * process stops accepting them at once rather than when the NOTIFY arrives.
     */
    forgetUser(userId: string): void {
      cache.forget((session) => session.userId === userId);
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
