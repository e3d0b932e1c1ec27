import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Store } from '../db/store.ts';
import type { RollUpPacing } from '../engine/retention.ts';
import type { Clock } from '../lib/clock.ts';
import type { PhonePolicy } from '../delivery/delivery.ts';
import type { EmailSender } from '../notify/email.ts';
import type { PhoneSender } from '../notify/twilio.ts';
import type { StripeEventProcessor } from '../modules/billing/stripe-events.ts';
import type { JobQueue } from './job-queue.ts';

/** What the billing jobs need: null when this server takes no payments (no Stripe and no sandbox). */
export interface BillingWorker {
  events: StripeEventProcessor;
}

/** What job handlers may use. */
export interface WorkerDeps {
  email: EmailSender;
  /** SMS and calls (Twilio); null when this server has no provider for them. */
  phone: PhoneSender | null;
  phonePolicy: PhonePolicy;
  /** To queue follow-up jobs: fallbacks, call retries, warnings. */
  queue: JobQueue;
  log: FastifyBaseLogger;
  store: Store;
  clock: Clock;
  /** The signed link that acknowledges an incident, put in its alerts. */
  ackLink(incidentId: string): Promise<string>;
  /** The origin people reach Vigil at, for links in messages. */
  publicUrl: string;
  billing?: BillingWorker | null;
  /** Raw check results are kept this long, then only their hourly roll-ups. */
  resultRetentionHours: number;
  /** How the hourly roll-up shares the machine with the checks: `rollUpPacingFor` the database. */
  rollUpPacing: RollUpPacing;
}

export interface RetryPolicy {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/** Which try of a job this is: the first is 0; `retryCount === retryLimit` is the last. */
export interface JobAttempt {
  id: string;
  retryCount: number;
  retryLimit: number;
  /** Seconds after its start at which this try counts as dead and its job is retried (the queue's policy). */
  expireInSeconds: number;
}

/** One background job: its queue name, the payload it accepts, how it retries, and what it does. */
export interface JobDefinition<P> {
  name: string;
  payload: z.ZodType<P>;
  retry: RetryPolicy;
  /** Jobs of this kind one process runs at the same time. */
  concurrency: number;
  handle(payload: P, deps: WorkerDeps, attempt: JobAttempt): Promise<void>;
}

export function defineJob<P>(job: JobDefinition<P>): JobDefinition<P> {
  return job;
}
