import { randomInt } from 'node:crypto';
import type {
  ContactStatus,
  MonitorContacts,
  SendCodeBody,
  VerifiedContact,
  VerifyCodeBody,
} from '@vigil/contracts';
import { PHONE_CONTACT } from '../../engine/alert-events.ts';
import { monthOf } from '../../engine/phone.repository.ts';
import { effectivePlan, NO_PLAN } from '../plans/plan-catalogue.ts';
import { MONITOR_NOT_FOUND } from '../monitors/monitor.service.ts';
import { sendPhoneCodeJob } from '../../jobs/send-phone-code.job.ts';
import type { Store } from '../../db/store.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { sendEmailJob } from '../../jobs/send-email.job.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/clock.ts';
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
  /** Texts and calls cost money and wake people: a day's cap per number and per account on top. */
  phoneByDay: (address: string): LimitRule => ({
    key: `contact-code:phone-day:${address}`,
    limit: 10,
    windowMs: DAY_MS,
  }),
  phoneAccountByDay: (userId: string): LimitRule => ({
    key: `contact-code:phone-account-day:${userId}`,
    limit: 30,
    windowMs: DAY_MS,
  }),
};

export const PHONE_NOT_CONFIGURED =
  'SMS and calls are not set up on this Vigil server, so phone numbers cannot be verified. Use email alerts.';

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

/** The contact a send-code or verify-code body is about: an email address, or a phone number (E.164). */
function contactOfBody(body: SendCodeBody | VerifyCodeBody): { channel: string; address: string } {
  return body.channel === 'email'
    ? { channel: 'email', address: normaliseAddress(body.email) }
    : { channel: PHONE_CONTACT, address: body.phone.trim() };
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
  /** False when this server has no SMS/call provider: phone numbers cannot be verified. */
  phoneConfigured: boolean;
  /** Vigil's own number, named in the STOP hint. */
  phoneFromNumber: string | null;
}) {
  const { store, limiter, queue, clock } = deps;
  const keyOf = (session: AuthSession, body: SendCodeBody | VerifyCodeBody): ContactKey => ({
    userId: session.userId,
    ...contactOfBody(body),
  });

  /** Refuses a phone code that cannot go out: no provider, or texts to a number that replied STOP. */
  async function checkPhoneCanReceive(
    body: Extract<SendCodeBody, { channel: 'sms' | 'call' }>,
    address: string,
  ) {
    if (!deps.phoneConfigured) throw new AppError('UNAVAILABLE', PHONE_NOT_CONFIGURED);
    if (body.channel !== 'sms') return;
    const stopped = await store.phone.optedOut([address]);
    if (stopped.has(address)) {
      throw new AppError(
        'CONFLICT',
        `${address} replied STOP, so Vigil cannot text it. Text START to ${deps.phoneFromNumber} from that phone, or get the code by a call.`,
      );
    }
  }

  return {
    /**
     * Sends a 6-digit code for 15 minutes: by email, or to a phone by SMS or a call that reads it out. A
     * contact already verified gets nothing and says so.
     */
    async sendCode(session: AuthSession, body: SendCodeBody): Promise<ContactAnswer> {
      const key = keyOf(session, body);
      if (await store.contacts.isVerified(key)) {
        return { ...answerOf(body, key), verified: true, message: `${key.address} is already verified.` };
      }
      if (body.channel !== 'email') await checkPhoneCanReceive(body, key.address);
      const rules = [
        CONTACT_CODE_LIMITS.byAddress(key.channel, key.address),
        CONTACT_CODE_LIMITS.byAccount(key.userId),
      ];
      if (body.channel !== 'email') {
        rules.push(
          CONTACT_CODE_LIMITS.phoneByDay(key.address),
          CONTACT_CODE_LIMITS.phoneAccountByDay(key.userId),
        );
      }
      const newest =
        body.channel === 'email'
          ? 'the newest email'
          : body.channel === 'sms'
            ? 'the newest SMS'
            : 'the last call';
      await limiter.consume(
        rules,
        (retryIn) => `Several codes were already sent. Use the code in ${newest}, or ask again ${retryIn}.`,
      );
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = clock.now();
      await store.transaction(async (tx) => {
        await tx.contacts.voidActive(key, now);
        await tx.contacts.insertCode(key, hashCode(key, code), now, addMs(now, CODE_TTL_MS));
      });
      // Enqueued after the commit: on PGlite the job engine shares the connection the transaction holds.
      if (body.channel === 'email') {
        await queue.send(sendEmailJob, contactCodeEmail({ to: key.address, code }));
      } else {
        await queue.send(sendPhoneCodeJob, {
          channel: body.channel,
          to: key.address,
          code,
          languageCode: body.languageCode ?? 'en-US',
        });
      }
      const how =
        body.channel === 'email'
          ? `A 6-digit code is on its way to ${key.address}.`
          : body.channel === 'sms'
            ? `A 6-digit code is on its way to ${key.address} by SMS.`
            : `Vigil is calling ${key.address} to read out a 6-digit code.`;
      return { ...answerOf(body, key), verified: false, message: `${how} It works for 15 minutes.` };
    },

    async verifyCode(session: AuthSession, body: VerifyCodeBody): Promise<ContactAnswer> {
      const key = keyOf(session, body);
      const verified = {
        ...answerOf(body, key),
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
            ? `That code is not right. Check the ${body.channel === 'email' ? 'email' : body.channel === 'sms' ? 'SMS' : 'code you heard'} and try again (${left} ${left === 1 ? 'try' : 'tries'} left).`
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

    /**
     * Whether each ticked channel of a monitor reaches its contact now, and why not when it does not; with the
     * month's SMS and call use against the plan's quota.
     */
    async monitorContacts(session: AuthSession, monitorId: string): Promise<MonitorContacts> {
      const [monitor, user] = await Promise.all([
        store.monitors.findOwned(session.userId, monitorId),
        store.users.findById(session.userId),
      ]);
      if (!monitor || !user) throw new AppError('NOT_FOUND', MONITOR_NOT_FOUND);
      const now = clock.now();
      const plan = effectivePlan(user, now);
      const used = await store.phone.usage(user.id, monthOf(now));
      const settings = monitor.alertSettings as {
        callSettings?: { checked?: boolean; phone?: string };
        smsSettings?: { checked?: boolean; phone?: string };
        emailSettings?: { checked?: boolean; email?: string };
      };
      const list: ContactStatus[] = [];
      for (const channel of ['call', 'sms'] as const) {
        const group = channel === 'call' ? settings.callSettings : settings.smsSettings;
        if (!group?.checked || !group.phone) continue;
        const address = group.phone;
        const limit = channel === 'sms' ? plan.smsPerMonth : plan.callsPerMonth;
        const noun = channel === 'sms' ? 'SMS' : 'calls';
        const status = (state: ContactStatus['state'], message: string) =>
          list.push({ channel, address, state, message });
        if (!deps.phoneConfigured) status('not_configured', PHONE_NOT_CONFIGURED);
        else if (!plan.channels.includes(channel)) {
          status(
            'not_in_plan',
            plan === NO_PLAN
              ? `No plan runs now (the Free period ended): choose a plan on the pricing page for ${noun}.`
              : `The ${plan.name} plan has no ${noun}: alerts go by email. Choose a bigger plan for ${noun}.`,
          );
        } else if (!(await store.contacts.isVerified({ userId: user.id, channel: PHONE_CONTACT, address }))) {
          status(
            'unverified',
            `${address} is not verified, so nothing goes to it. Send a code and enter it.`,
          );
        } else if (channel === 'sms' && (await store.phone.optedOut([address])).has(address)) {
          status(
            'opted_out',
            `${address} replied STOP: no texts until it replies START to ${deps.phoneFromNumber}.`,
          );
        } else if (used[channel] >= limit) {
          status(
            'quota_exhausted',
            `This month’s ${limit} ${noun} are used up: alerts go by email until the 1st.`,
          );
        } else {
          status(
            'ok',
            channel === 'sms'
              ? `Alerts are texted to ${address}.`
              : `Alerts ring ${address}; press 1 to acknowledge.`,
          );
        }
      }
      const email = settings.emailSettings;
      if (email?.checked && email.email) {
        const address = normaliseAddress(email.email);
        const ok = await store.contacts.isVerified({ userId: user.id, channel: 'email', address });
        list.push({
          channel: 'email',
          address,
          state: ok ? 'ok' : 'unverified',
          message: ok
            ? `Alerts are emailed to ${address}.`
            : `${address} is not verified, so no alert goes to it.`,
        });
      }
      return {
        list,
        usage: {
          sms: { used: used.sms, limit: plan.smsPerMonth },
          calls: { used: used.call, limit: plan.callsPerMonth },
        },
      };
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

/** Answers name the channel the person asked on (email, sms, call) and the stored address. */
function answerOf(body: SendCodeBody | VerifyCodeBody, key: ContactKey) {
  return { channel: body.channel, address: key.address };
}
