import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { isE164, PhoneActionError, TwilioAccount } from './twilio-account.ts';
import { Calls, type CallRequest, type SandboxCall } from './twilio-calls.ts';
import { Messaging, type SandboxMessage } from './twilio-messaging.ts';

export type { CallStatus, SandboxCall, Spoken } from './twilio-calls.ts';
export type { MessageStatus, SandboxMessage } from './twilio-messaging.ts';
export { PhoneActionError } from './twilio-account.ts';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** Vigil's own Twilio number, E.164: the only From the REST API accepts, and where people text. */
  phoneNumber: string;
  /** Where inbound SMS are posted. Default `${publicUrl}/webhooks/twilio/inbound-sms`. */
  inboundSmsUrl?: string | (() => string);
  /** How long a call rings when the request sets no Timeout. Twilio's default: 60. */
  callTimeoutSeconds?: number;
}

export type TwilioResource = 'Messages' | 'Calls';

export interface TwilioFault {
  resource: TwilioResource;
  /** The HTTP status to answer. Absent: the usual answer, only late (with holdMs). */
  status?: number;
  /** Twilio's error code; default 20000 + status (20429, 20500, 20503, …). */
  code?: number;
  message?: string;
  /** How many of the next POSTs to the resource it hits. Default 1. */
  count?: number;
  /** Holds the request this long before answering. */
  holdMs?: number;
  /**
   * before (default): nothing is created. after: the message or call is created (and goes on) first, then the
   * answer is held and given — Twilio accepted the request but the client never learnt it.
   */
  stage?: 'before' | 'after';
}

export interface ActiveFault {
  status: number | null;
  code: number;
  message: string;
  holdMs: number;
  stage: 'before' | 'after';
}

/** Twilio's magic test number: valid as a From with test credentials, so a sensible default here too. */
const DEFAULT_PHONE_NUMBER = '+15005550006';

/**
 * A stand-in for the Twilio account Vigil sends SMS and places calls through. Tests use it in-process (like
 * the mailbox); the REST API, the JSON API and the /phone page all drive this one object.
 */
export class TwilioSandbox {
  readonly account: TwilioAccount;
  readonly callTimeoutSeconds: number;
  readonly #messaging: Messaging;
  readonly #calls: Calls;
  #faults: (ActiveFault & { resource: TwilioResource; remaining: number })[] = [];
  readonly #requests: Record<TwilioResource, number> = { Messages: 0, Calls: 0 };
  readonly #holds = new Set<() => void>();

  constructor(options: TwilioOptions, publicUrl: () => string) {
    this.account = new TwilioAccount(options.accountSid, options.authToken, options.phoneNumber);
    const inboundSmsUrl = () => {
      const configured = options.inboundSmsUrl;
      if (configured === undefined) return `${publicUrl()}/webhooks/twilio/inbound-sms`;
      return typeof configured === 'function' ? configured() : configured;
    };
    this.#messaging = new Messaging(this.account, inboundSmsUrl);
    this.#calls = new Calls(this.account);
    this.callTimeoutSeconds = options.callTimeoutSeconds ?? 60;
  }

  /** Credentials made up for a sandbox started without any: random, so no test can lean on them by accident. */
  static generatedOptions(): TwilioOptions {
    return {
      accountSid: `AC${randomBytes(16).toString('hex')}`,
      authToken: randomBytes(16).toString('hex'),
      phoneNumber: DEFAULT_PHONE_NUMBER,
    };
  }

  get phoneNumber(): string {
    return this.account.phoneNumber;
  }

  /** Newest first. */
  messages(filter: { to?: string; from?: string } = {}): SandboxMessage[] {
    return this.#messaging.list(filter);
  }

  message(sid: string): SandboxMessage | undefined {
    return this.#messaging.get(sid);
  }

  /** Newest first. */
  calls(filter: { to?: string; from?: string; status?: string } = {}): SandboxCall[] {
    return this.#calls.list(filter);
  }

  call(sid: string): SandboxCall | undefined {
    return this.#calls.get(sid);
  }

  /** Resolves with the first message, already here or still to come (or to change), that matches. */
  waitForMessage(
    predicate: (message: SandboxMessage) => boolean,
    timeoutMs = 10_000,
  ): Promise<SandboxMessage> {
    return this.#messaging.waitFor(predicate, timeoutMs);
  }

  /** Resolves with the first call, in its current or a later state, that matches. */
  waitForCall(predicate: (call: SandboxCall) => boolean, timeoutMs = 10_000): Promise<SandboxCall> {
    return this.#calls.waitFor(predicate, timeoutMs);
  }

  // The person's side of a call. Each resolves once the webhooks it causes are answered and the call's TwiML
  // waits for keys or has ended; each rejects with PhoneActionError for an unknown SID or a call in the wrong state.
  answer(callSid: string): Promise<SandboxCall> {
    return this.#calls.answer(callSid);
  }

  press(callSid: string, digits: string): Promise<SandboxCall> {
    return this.#calls.press(callSid, digits);
  }

  hangUp(callSid: string): Promise<SandboxCall> {
    return this.#calls.hangUp(callSid);
  }

  leaveUnanswered(callSid: string): Promise<SandboxCall> {
    return this.#calls.leaveUnanswered(callSid);
  }

  busy(callSid: string): Promise<SandboxCall> {
    return this.#calls.busy(callSid);
  }

  /** A person texts Vigil's number. Resolves with the inbound message once Vigil's webhook has answered. */
  reply(fromNumber: string, body: string): Promise<SandboxMessage> {
    return this.#messaging.receive(fromNumber, body);
  }

  isOptedOut(number: string): boolean {
    return this.#messaging.isOptedOut(number);
  }

  /** SMS to an unreachable handset end `undelivered` with error 30003. */
  setUnreachable(number: string, unreachable = true): void {
    if (!isE164(number)) throw new PhoneActionError('INVALID', 'number must be in E.164 format.');
    this.#messaging.setUnreachable(number, unreachable);
  }

  addFault(fault: TwilioFault): void {
    if (fault.resource !== 'Messages' && fault.resource !== 'Calls') {
      throw new PhoneActionError('INVALID', 'resource must be Messages or Calls.');
    }
    const status = fault.status ?? null;
    if (status !== null && !(Number.isInteger(status) && status >= 400 && status <= 599)) {
      throw new PhoneActionError('INVALID', 'status must be an HTTP error status (400 to 599).');
    }
    if (fault.stage !== undefined && fault.stage !== 'before' && fault.stage !== 'after') {
      throw new PhoneActionError('INVALID', 'stage must be before or after.');
    }
    const count = fault.count ?? 1;
    const holdMs = fault.holdMs ?? 0;
    if (!Number.isInteger(count) || count < 1 || !(holdMs >= 0)) {
      throw new PhoneActionError('INVALID', 'count must be a positive integer and holdMs at least 0.');
    }
    this.#faults.push({
      resource: fault.resource,
      status,
      code: fault.code ?? (status === null ? 0 : 20000 + status),
      message: fault.message ?? (status === null ? '' : (STATUS_CODES[status] ?? `HTTP ${status}`)),
      holdMs,
      stage: fault.stage ?? 'before',
      remaining: count,
    });
  }

  clearFaults(): void {
    this.#faults = [];
  }

  /** Authenticated POSTs per resource, failed ones included: how many attempts a client made. */
  get requests(): Readonly<Record<TwilioResource, number>> {
    return { ...this.#requests };
  }

  /** Forgets every message, call, opt-out, unreachable number, fault and count; releases held requests. */
  reset(): void {
    this.#messaging.clear();
    this.#calls.clear();
    this.clearFaults();
    this.#requests.Messages = 0;
    this.#requests.Calls = 0;
    this.#releaseHolds();
  }

  /** Stops calls, deliveries and held requests where they are, so a closing server is not kept waiting. */
  dispose(): void {
    this.#messaging.stop();
    this.#calls.stop();
    this.#releaseHolds();
  }

  // For the REST routes: what Twilio's API does behind its validation.

  countRequest(resource: TwilioResource): void {
    this.#requests[resource] += 1;
  }

  takeFault(resource: TwilioResource): ActiveFault | undefined {
    const fault = this.#faults.find((f) => f.resource === resource);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.#faults = this.#faults.filter((f) => f !== fault);
    return {
      status: fault.status,
      code: fault.code,
      message: fault.message,
      holdMs: fault.holdMs,
      stage: fault.stage,
    };
  }

  /** Waits `ms`, or less if the sandbox is reset or disposed meanwhile. */
  hold(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.#holds.delete(release);
        resolve();
      };
      const timer = setTimeout(release, ms);
      this.#holds.add(release);
    });
  }

  sendMessage(request: { to: string; body: string; statusCallback: string | null }): SandboxMessage {
    return this.#messaging.send(request);
  }

  startCall(request: CallRequest): SandboxCall {
    return this.#calls.start(request);
  }

  #releaseHolds(): void {
    for (const release of [...this.#holds]) release();
  }
}
