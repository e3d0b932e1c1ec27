import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.ts';
import type { Clock } from '../lib/clock.ts';
import type { EmailMessage, EmailSender } from '../notify/email.ts';
import type { PhoneSender } from '../notify/twilio.ts';

/** How alert calls ring and retry. */
export interface PhonePolicy {
  /** Seconds a call rings before Twilio reports no-answer. */
  ringSeconds: number;
  /** Calls placed for one alert before it counts as unanswered and falls back to SMS. */
  callTries: number;
  /** Pause between an unanswered call and the next try. */
  retryPauseSeconds: number;
}

export const DEFAULT_PHONE_POLICY: PhonePolicy = { ringSeconds: 30, callTries: 3, retryPauseSeconds: 120 };

/** Thrown when another worker holds the delivery: the job is retried and then finds it sent. */
export class DeliveryBusyError extends Error {
  constructor(id: string) {
    super(`Delivery ${id} is being sent by another worker`);
    this.name = 'DeliveryBusyError';
  }
}

/** Which try of its job this is: the first is 0; `retryCount === retryLimit` is the last. */
export interface DeliveryAttempt {
  retryCount: number;
  retryLimit: number;
  /**
   * How long this try owns the delivery it sends: its job's expiry (deliver-alert.job.ts), longer than the
   * senders' own time limits, so a live worker finishes (or gives up) before anyone else may take the delivery
   * over, and a dead worker's delivery is free again when its job is retried.
   */
  leaseMs: number;
}

/**
 * What sending a delivery needs. The job engine comes in as two functions, so delivery knows nothing of jobs
 * (jobs/deliver-alert.job.ts provides them).
 */
export interface DeliverDeps {
  store: Store;
  clock: Clock;
  email: EmailSender;
  /** SMS and calls (Twilio); null when this server has no provider for them. */
  phone: PhoneSender | null;
  phonePolicy: PhonePolicy;
  /** The signed link that acknowledges an incident, put in its alerts. */
  ackLink(incidentId: string): Promise<string>;
  /** The origin people reach Vigil at, for links in messages. */
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Hands new deliveries (fallbacks, call retries) to the job engine, after a pause when given. */
  queueDeliveries(ids: string[], startAfterSeconds?: number): Promise<void>;
  /** Hands an email (the quota warning) to the job engine. */
  queueEmail(message: EmailMessage): Promise<void>;
}
