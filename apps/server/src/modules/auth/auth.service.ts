import { randomInt } from 'node:crypto';
import type { LoginBody, RegisterBody, Session } from '@vigil/contracts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Store } from '../../db/store.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { sendEmailJob } from '../../jobs/send-email.job.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, MINUTE_MS } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import { randomToken, safeEqual, sha256Hex } from '../../lib/secrets.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limit.service.ts';
import type { AuthSession, SessionService } from '../sessions/session.service.ts';
import { resetCodeEmail } from './reset-code-email.ts';

export const WRONG_CREDENTIALS = 'The email or password is incorrect.';
const RESET_CODE_TTL_MS = 30 * MINUTE_MS;
const RESET_CODE_MAX_TRIES = 5;

type PasswordLogin = Extract<LoginBody, { email: string }>;

export interface AuthServiceDeps {
  store: Store;
  sessions: SessionService;
  limiter: RateLimiter;
  hasher: PasswordHasher;
  queue: JobQueue;
  clock: Clock;
  publicUrl: string;
}

/** Client facts the limits are keyed on. */
export interface Caller {
  ip: string;
}

export function newMonitorKey(): string {
  return randomToken(16);
}

// The user id is mixed in so equal codes of two users never share a hash.
function hashResetCode(userId: string, code: string): string {
  return sha256Hex(`${userId}:${code}`);
}

const signInLimited = (retryIn: string) =>
  `Too many failed sign-in attempts. Try again ${retryIn}, or reset your password.`;

export function createAuthService(deps: AuthServiceDeps) {
  const { store, sessions, limiter, hasher, queue, clock } = deps;

  return {
    async register(body: RegisterBody, caller: Caller): Promise<Session> {
      await limiter.consume(
        [LIMITS.registerByAddress(caller.ip)],
        (retryIn) => `Too many accounts were created from your network. Try again ${retryIn}.`,
      );
      const conflict = new AppError(
        'CONFLICT',
        'An account with this email already exists. Sign in instead, or reset your password if you forgot it.',
      );
      if (await store.users.findByEmail(body.email)) throw conflict;
      const passwordHash = await hasher.hash(body.password);
      try {
        return await store.transaction(async (tx) => {
          const user = await tx.users.insert({
            email: body.email,
            passwordHash,
            monitorKey: newMonitorKey(),
            now: clock.now(),
          });
          const token = await sessions.start(tx.sessions, user.id);
          return { token, monitor_key: user.monitorKey };
        });
      } catch (error) {
        // Two registrations of one email at the same moment: the database keeps the first.
        if (isUniqueViolation(error)) throw conflict;
        throw error;
      }
    },

    /**
     * Each attempt counts before the password is checked, against the account from this address (the lock),
     * the address (guesses spread over many accounts) and the account from anywhere (a ceiling). Failures from
     * one address never lock the owner out elsewhere: past the account's ceiling, an address that has not
     * tried this account in the window still gets its try, so a spread-out attack costs a fresh address per
     * guess while the owner at home signs in (ARCHITECTURE.md, Hardening). A success clears the pair's count
     * and gives back only its own attempt of the others, so signing in to one's own account between guesses
     * at others does not reset the address limit.
     */
    async login(body: PasswordLogin, caller: Caller): Promise<Session> {
      const byPair = LIMITS.signInByAccountAndAddress(body.email, caller.ip);
      const byAddress = LIMITS.signInByAddress(caller.ip);
      const byAccount = LIMITS.signInByAccount(body.email);
      const pair = await limiter.hit(byPair);
      const address = await limiter.hit(byAddress);
      const account = await limiter.hit(byAccount);
      limiter.refuseIfOver(pair.count > 1 ? [pair, address, account] : [pair, address], signInLimited);
      const user = await store.users.findByEmail(body.email);
      if (!user?.passwordHash) {
        await hasher.burnTime(body.password);
        throw new AppError('INVALID', WRONG_CREDENTIALS);
      }
      if (!(await hasher.verify(user.passwordHash, body.password))) {
        throw new AppError('INVALID', WRONG_CREDENTIALS);
      }
      const token = await store.transaction(async (tx) => {
        await limiter.clear(byPair, tx.rateLimits);
        await limiter.refund(byAddress, tx.rateLimits);
        await limiter.refund(byAccount, tx.rateLimits);
        return sessions.start(tx.sessions, user.id);
      });
      return { token, monitor_key: user.monitorKey, redirect: null };
    },

    logout: (session: AuthSession) => sessions.end(session),

    /**
     * Answers alike whether or not the account exists (the caller always sees the same message). The limits
     * count requests per email whether or not it has an account, so a 429 reveals nothing either; they also
     * make timing the answer to learn whether an account exists too slow to be useful.
     */
    async forgetPassword(email: string, caller: Caller): Promise<void> {
      await limiter.consume(
        [LIMITS.resetEmailByAccount(email), LIMITS.resetEmailByAddress(caller.ip)],
        (retryIn) =>
          `Several reset emails were already sent. Use the code in the newest one, or ask again ${retryIn}.`,
      );
      const user = await store.users.findByEmail(email);
      if (!user) return;
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = clock.now();
      await store.transaction(async (tx) => {
        await tx.resetCodes.voidActive(user.id, now);
        await tx.resetCodes.insert({
          userId: user.id,
          codeHash: hashResetCode(user.id, code),
          now,
          expiresAt: addMs(now, RESET_CODE_TTL_MS),
        });
      });
      // Enqueued after the commit: on PGlite the job engine shares the connection the transaction holds.
      await queue.send(sendEmailJob, resetCodeEmail({ to: user.email, code, publicUrl: deps.publicUrl }));
    },

    async verifyPassword(
      body: { email: string; code: string; password: string },
      caller: Caller,
    ): Promise<void> {
      const notValid = new AppError(
        'INVALID',
        'This code is not valid. Ask for a new code and use the newest email.',
      );
      const user = await store.users.findByEmail(body.email);
      if (!user) throw notValid;
      const resetCode = await store.resetCodes.findUnused(user.id);
      if (!resetCode) throw notValid;
      const now = clock.now();
      if (resetCode.expiresAt.getTime() <= now.getTime()) {
        throw new AppError(
          'INVALID',
          'This code has expired: codes work for 30 minutes. Ask for a new code.',
        );
      }
      if (!safeEqual(hashResetCode(user.id, body.code), resetCode.codeHash)) {
        const tries = await store.resetCodes.recordFailure(resetCode.id, now, RESET_CODE_MAX_TRIES);
        const left = RESET_CODE_MAX_TRIES - tries;
        throw new AppError(
          'INVALID',
          left > 0
            ? `That code is not right. Check the email and try again (${left} ${left === 1 ? 'try' : 'tries'} left).`
            : 'That code was wrong too many times and no longer works. Ask for a new code.',
        );
      }
      const passwordHash = await hasher.hash(body.password);
      await store.transaction(async (tx) => {
        if (!(await tx.resetCodes.consume(resetCode.id, now))) throw notValid;
        await tx.users.update(user.id, { passwordHash }, now);
        await tx.sessions.deleteAllOfUser(user.id);
        // Proving the mailbox is proof enough to lift the sign-in lock the forgotten password caused here.
        await limiter.clear(LIMITS.signInByAccountAndAddress(user.email, caller.ip), tx.rateLimits);
        await limiter.clear(LIMITS.signInByAccount(user.email), tx.rateLimits);
      });
      sessions.forgetUser(user.id);
    },

    async changePassword(
      session: AuthSession,
      body: { oldPassword: string; newPassword: string },
    ): Promise<void> {
      const user = await store.users.findById(session.userId);
      if (!user) throw new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
      if (!user.passwordHash) {
        throw new AppError(
          'INVALID',
          'Your account signs in with Google and has no password yet. To set one, sign out and use "Forgot password" on the sign-in page.',
        );
      }
      if (body.newPassword === body.oldPassword) {
        throw new AppError('INVALID', 'Choose a new password that differs from your current one.');
      }
      // Wrong current passwords are limited too, so a borrowed session cannot guess it.
      const byAccount = LIMITS.changePasswordByAccount(user.email);
      await limiter.consume([byAccount], signInLimited);
      if (!(await hasher.verify(user.passwordHash, body.oldPassword))) {
        throw new AppError('INVALID', 'Your current password is not right.');
      }
      const passwordHash = await hasher.hash(body.newPassword);
      await store.transaction(async (tx) => {
        await tx.users.update(user.id, { passwordHash }, clock.now());
        await tx.sessions.deleteOthersOfUser(user.id, session.sessionId);
        await limiter.clear(byAccount, tx.rateLimits);
      });
      sessions.forgetUser(user.id);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
