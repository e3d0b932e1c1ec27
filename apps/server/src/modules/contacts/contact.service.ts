import { randomInt } from 'node:crypto';
import type { VerifiedContact } from '@vigil/contracts';
import type { Store } from '../../db/store.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { sendEmailJob } from '../../jobs/send-email.job.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, HOUR_MS, MINUTE_MS } from '../../lib/clock.ts';
import { safeEqual, sha256Hex } from '../../lib/secrets.ts';
import type { LimitRule, RateLimiter } from '../rate-limits/rate-limit.service.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import { contactCodeEmail } from './contact-code-email.ts';
import type { ContactKey } from './contact.repository.ts';

const CODE_TTL_MS = 15 * MINUTE_MS;
const CODE_MAX_TRIES = 5;

/** Codes sent: per address (whoever asks, so nobody floods someone's inbox) and per account. */
export const CONTACT_CODE_LIMITS = {
  byAddress: (channel: string, address: string): LimitRule => ({
    key: `contact-code:address:${channel}:${address}`,
    limit: 5,
    windowMs: HOUR_MS,
  }),
  byAccount: (userId: string): LimitRule => ({
    key: `contact-code:account:${userId}`,
    limit: 20,
    windowMs: HOUR_MS,
  }),
};

export interface ContactAnswer {
  channel: string;
  address: string;
  verified: boolean;
  message: string;
}

/** Email addresses compare without case, as the contracts' email schema stores them. */
export function normaliseAddress(address: string): string {
  return address.trim().toLowerCase();
}

// The contact is mixed in so equal codes of two contacts never share a hash.
function hashCode(key: ContactKey, code: string): string {
  return sha256Hex(`${key.userId}:${key.channel}:${key.address}:${code}`);
}

export function createContactService(deps: {
  store: Store;
  limiter: RateLimiter;
  queue: JobQueue;
  clock: Clock;
}) {
  const { store, limiter, queue, clock } = deps;
  const keyOf = (session: AuthSession, channel: string, address: string): ContactKey => ({
    userId: session.userId,
    channel,
    address: normaliseAddress(address),
  });

  return {
    /** Emails a 6-digit code for 15 minutes; an address already verified gets nothing and says so. */
    async sendCode(session: AuthSession, body: { channel: 'email'; email: string }): Promise<ContactAnswer> {
      const key = keyOf(session, body.channel, body.email);
      if (await store.contacts.isVerified(key)) {
        return { ...contactOf(key), verified: true, message: `${key.address} is already verified.` };
      }
      await limiter.consume(
        [CONTACT_CODE_LIMITS.byAddress(key.channel, key.address), CONTACT_CODE_LIMITS.byAccount(key.userId)],
        (retryIn) =>
          `Several codes were already sent. Use the code in the newest email, or ask again ${retryIn}.`,
      );
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = clock.now();
      await store.transaction(async (tx) => {
        await tx.contacts.voidActive(key, now);
        await tx.contacts.insertCode(key, hashCode(key, code), now, addMs(now, CODE_TTL_MS));
      });
      // Enqueued after the commit: on PGlite the job engine shares the connection the transaction holds.
      await queue.send(sendEmailJob, contactCodeEmail({ to: key.address, code }));
      return {
        ...contactOf(key),
        verified: false,
        message: `A 6-digit code is on its way to ${key.address}. It works for 15 minutes.`,
      };
    },

    async verifyCode(
      session: AuthSession,
      body: { channel: 'email'; email: string; code: string },
    ): Promise<ContactAnswer> {
      const key = keyOf(session, body.channel, body.email);
      const verified = {
        ...contactOf(key),
        verified: true,
        message: `${key.address} is verified: alerts can go to it.`,
      };
      const pending = await store.contacts.findUnused(key);
      if (!pending) {
        if (await store.contacts.isVerified(key)) return verified;
        throw new AppError('INVALID', `No code is waiting for ${key.address}. Send a code first.`);
      }
      const now = clock.now();
      if (pending.expiresAt.getTime() <= now.getTime()) {
        throw new AppError('INVALID', 'This code has expired: codes work for 15 minutes. Send a new code.');
      }
      if (!safeEqual(hashCode(key, body.code), pending.codeHash)) {
        const tries = await store.contacts.recordFailure(pending.id, now, CODE_MAX_TRIES);
        const left = CODE_MAX_TRIES - tries;
        throw new AppError(
          'INVALID',
          left > 0
            ? `That code is not right. Check the email and try again (${left} ${left === 1 ? 'try' : 'tries'} left).`
            : 'That code was wrong too many times and no longer works. Send a new code.',
        );
      }
      await store.transaction(async (tx) => {
        if (!(await tx.contacts.consume(pending.id, now))) {
          throw new AppError('INVALID', 'This code was already used. Send a new code.');
        }
        await tx.contacts.markVerified(key, now);
      });
      return verified;
    },

    async listVerified(session: AuthSession): Promise<VerifiedContact[]> {
      const rows = await store.contacts.verifiedOfUser(session.userId);
      return rows.map((row) => ({
        channel: row.channel,
        address: row.address,
        verifiedAt: row.verifiedAt.toISOString(),
      }));
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;

function contactOf(key: ContactKey) {
  return { channel: key.channel, address: key.address };
}
