import { AppError } from '../../lib/app-error.ts';
import { type Clock, DAY_MS, MINUTE_MS } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/secrets.ts';
import type { SessionRepository } from './session.repository.ts';

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

export function createSessionService(deps: { sessions: SessionRepository; clock: Clock; ttlDays: number }) {
  const { sessions, clock } = deps;
  const ttlMs = deps.ttlDays * DAY_MS;
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
      const session = await sessions.findByTokenHash(sha256Hex(token));
      if (!session) throw new AppError('UNAUTHORIZED', SESSION_ENDED);
      const now = clock.now();
      const idleMs = now.getTime() - session.lastUsedAt.getTime();
      if (idleMs > ttlMs) {
        await sessions.delete(session.id);
        throw new AppError('UNAUTHORIZED', SESSION_ENDED);
      }
      if (idleMs >= TOUCH_INTERVAL_MS) await sessions.touch(session.id, now);
      return { sessionId: session.id, userId: session.userId, monitorKey: session.monitorKey };
    },

    end: (session: AuthSession) => sessions.delete(session.sessionId),
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
