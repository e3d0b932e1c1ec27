import { randomBytes } from 'node:crypto';
import { callWebhook, type HttpMethod, type WebhookAnswer } from './twilio-webhook.ts';

export const API_VERSION = '2010-04-01';

/** Twilio's SIDs: a two-letter type prefix (SM, CA, AC, PN) and 32 hex digits. */
export function newSid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

export function isE164(number: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(number);
}

/** "A moment later": how long a message waits before it is sent, and a new call before it rings. */
export const STEP_MS = 10;

export function later(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A sandbox control action that does not fit: an unknown SID, a call in the wrong state, bad input. */
export class PhoneActionError extends Error {
  override readonly name = 'PhoneActionError';
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

/** The one Twilio account the sandbox plays: its credentials, its phone number, and its signed webhooks. */
export class TwilioAccount {
  constructor(
    readonly sid: string,
    readonly authToken: string,
    /** Vigil's own Twilio number, E.164. */
    readonly phoneNumber: string,
  ) {}

  post(url: string, method: HttpMethod, params: Record<string, string>): Promise<WebhookAnswer> {
    return callWebhook(this.authToken, { url, method }, params);
  }
}
