import {
  API_VERSION,
  isE164,
  later,
  newSid,
  PhoneActionError,
  STEP_MS,
  type TwilioAccount,
} from './twilio-account.ts';
import { parseMessagingTwiml } from './twiml.ts';
import { Waiters } from './waiters.ts';

export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'received';

export interface SandboxMessage {
  sid: string;
  /** outbound-api: sent through the REST API; outbound-reply: Twilio's keyword replies and TwiML <Message>s. */
  direction: 'inbound' | 'outbound-api' | 'outbound-reply';
  from: string;
  to: string;
  body: string;
  status: MessageStatus;
  errorCode: number | null;
  errorMessage: string | null;
  numSegments: number;
  statusCallback: string | null;
  /** Inbound only: the HTTP status Vigil's webhook answered, null when it did not answer. */
  webhookStatus: number | null;
  createdAt: string;
  sentAt: string | null;
  updatedAt: string;
}

/**
 * Twilio's default keyword handling on long codes: a single word (any case, surrounding spaces ignored).
 * REVOKE and OPTOUT joined the opt-out list in May 2025 (FCC consent-revocation rule).
 */
const OPT_OUT_KEYWORDS = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
]);
const OPT_IN_KEYWORDS = new Set(['START', 'YES', 'UNSTOP']);
export const OPT_OUT_REPLY =
  'You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.';
export const OPT_IN_REPLY =
  'You have successfully been resubscribed to messages from this number. Reply HELP for help. Reply STOP to unsubscribe. Msg&Data Rates May Apply.';

const UNREACHABLE = { code: 30003, message: 'Unreachable destination handset' };

// GSM 03.38: the basic set costs one septet, the extension set two; anything else makes the message UCS-2.
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';

/** How many SMS segments carry the body: 160/153 septets per segment in GSM-7, 70/67 UTF-16 units in UCS-2. */
export function segmentCount(body: string): number {
  let septets = 0;
  for (const char of body) {
    if (GSM_BASIC.includes(char)) septets += 1;
    else if (GSM_EXTENSION.includes(char)) septets += 2;
    else return body.length <= 70 ? 1 : Math.ceil(body.length / 67);
  }
  return septets <= 160 ? 1 : Math.ceil(septets / 153);
}

/** The SMS side of the sandbox: what was sent and received, delivery, and Twilio's STOP/START handling. */
export class Messaging {
  readonly #messages: SandboxMessage[] = [];
  readonly #waiters = new Waiters<SandboxMessage>('message');
  readonly #optedOut = new Set<string>();
  readonly #unreachable = new Set<string>();
  /** Bumped by stop(), so deliveries under way end quietly. */
  #generation = 0;

  constructor(
    private readonly account: TwilioAccount,
    private readonly inboundSmsUrl: () => string,
    private readonly capacity = 500,
  ) {}

  list(filter: { to?: string; from?: string } = {}): SandboxMessage[] {
    return this.#messages
      .filter((m) => (!filter.to || m.to === filter.to) && (!filter.from || m.from === filter.from))
      .map((m) => ({ ...m }));
  }

  get(sid: string): SandboxMessage | undefined {
    const message = this.#messages.find((m) => m.sid === sid);
    return message && { ...message };
  }

  waitFor(predicate: (message: SandboxMessage) => boolean, timeoutMs: number): Promise<SandboxMessage> {
    return this.#waiters.waitFor(this.list(), predicate, timeoutMs);
  }

  isOptedOut(number: string): boolean {
    return this.#optedOut.has(number);
  }

  /** An unreachable handset: messages to it end `undelivered` with error 30003. */
  setUnreachable(number: string, unreachable: boolean): void {
    if (unreachable) this.#unreachable.add(number);
    else this.#unreachable.delete(number);
  }

  /** Accepts an outbound message (already validated as the REST API does) and delivers it a moment later. */
  send(request: { to: string; body: string; statusCallback: string | null }): SandboxMessage {
    const message = this.#add({
      direction: 'outbound-api',
      from: this.account.phoneNumber,
      to: request.to,
      body: request.body,
      status: 'queued',
      statusCallback: request.statusCallback,
    });
    void this.#deliver(message);
    return { ...message };
  }

  /**
   * A person texts Vigil's number: Twilio applies its keyword handling, then posts the message to the inbound
   * webhook and sends the <Message> replies of the TwiML it answers. Resolves once the replies are recorded.
   */
  async receive(from: string, body: string): Promise<SandboxMessage> {
    if (!isE164(from)) throw new PhoneActionError('INVALID', 'from must be a phone number in E.164 format.');
    const inbound = this.#add({
      direction: 'inbound',
      from,
      to: this.account.phoneNumber,
      body,
      status: 'received',
      statusCallback: null,
    });
    inbound.sentAt = inbound.createdAt;
    const keyword = body.trim().toUpperCase();
    if (OPT_OUT_KEYWORDS.has(keyword)) {
      this.#optedOut.add(from);
      this.#reply(from, OPT_OUT_REPLY);
    } else if (OPT_IN_KEYWORDS.has(keyword)) {
      this.#optedOut.delete(from);
      this.#reply(from, OPT_IN_REPLY);
    }

    const answer = await this.account.post(this.inboundSmsUrl(), 'POST', {
      AccountSid: this.account.sid,
      ApiVersion: API_VERSION,
      Body: body,
      From: from,
      MessageSid: inbound.sid,
      NumMedia: '0',
      NumSegments: String(inbound.numSegments),
      SmsMessageSid: inbound.sid,
      SmsSid: inbound.sid,
      SmsStatus: 'received',
      To: this.account.phoneNumber,
    });
    this.#update(inbound, { webhookStatus: answer.status });
    if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
      for (const reply of this.#repliesIn(answer.body)) {
        const to = reply.to ?? from;
        // Twilio does not deliver to a number that opted out, replies included.
        if (!this.#optedOut.has(to)) this.#reply(to, reply.body);
      }
    }
    return { ...inbound };
  }

  /** Stops deliveries under way: no status changes or callbacks for the messages sent so far. */
  stop(): void {
    this.#generation += 1;
  }

  clear(): void {
    this.stop();
    this.#messages.length = 0;
    this.#optedOut.clear();
    this.#unreachable.clear();
  }

  #repliesIn(twiml: string) {
    try {
      return parseMessagingTwiml(twiml);
    } catch {
      // Twilio logs error 12100 (document parse failure) to the debugger and sends nothing.
      return [];
    }
  }

  #reply(to: string, body: string): void {
    const message = this.#add({
      direction: 'outbound-reply',
      from: this.account.phoneNumber,
      to,
      body,
      status: 'queued',
      statusCallback: null,
    });
    void this.#deliver(message);
  }

  #add(
    fields: Pick<SandboxMessage, 'direction' | 'from' | 'to' | 'body' | 'status' | 'statusCallback'>,
  ): SandboxMessage {
    const now = new Date().toISOString();
    const message: SandboxMessage = {
      sid: newSid('SM'),
      ...fields,
      errorCode: null,
      errorMessage: null,
      numSegments: segmentCount(fields.body),
      webhookStatus: null,
      createdAt: now,
      sentAt: null,
      updatedAt: now,
    };
    this.#messages.unshift(message);
    this.#messages.length = Math.min(this.#messages.length, this.capacity);
    this.#waiters.notify({ ...message });
    return message;
  }

  #update(message: SandboxMessage, changes: Partial<SandboxMessage>): void {
    Object.assign(message, changes, { updatedAt: new Date().toISOString() });
    this.#waiters.notify({ ...message });
  }

  /** queued → sent → delivered (or undelivered for an unreachable handset), a status callback for each step. */
  async #deliver(message: SandboxMessage): Promise<void> {
    const generation = this.#generation;
    await later(STEP_MS);
    if (generation !== this.#generation) return;
    this.#update(message, { status: 'sent', sentAt: new Date().toISOString() });
    await this.#statusCallback(message);
    await later(STEP_MS);
    if (generation !== this.#generation) return;
    if (this.#unreachable.has(message.to)) {
      this.#update(message, {
        status: 'undelivered',
        errorCode: UNREACHABLE.code,
        errorMessage: UNREACHABLE.message,
      });
    } else {
      this.#update(message, { status: 'delivered' });
    }
    await this.#statusCallback(message);
  }

  async #statusCallback(message: SandboxMessage): Promise<void> {
    if (!message.statusCallback) return;
    await this.account.post(message.statusCallback, 'POST', {
      AccountSid: this.account.sid,
      ApiVersion: API_VERSION,
      From: message.from,
      MessageSid: message.sid,
      MessageStatus: message.status,
      SmsSid: message.sid,
      SmsStatus: message.status,
      To: message.to,
      ...(message.errorCode === null ? {} : { ErrorCode: String(message.errorCode) }),
    });
  }
}
