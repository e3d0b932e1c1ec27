import { API_VERSION, newSid, PhoneActionError, STEP_MS, type TwilioAccount } from './twilio-account.ts';
import type { HttpMethod } from './twilio-webhook.ts';
import { parseVoiceTwiml, type GatherVerb, type VoiceVerb } from './twiml.ts';
import { Waiters } from './waiters.ts';

export type CallStatus =
  'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';

const FINAL: ReadonlySet<CallStatus> = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

export type CallEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

export interface Spoken {
  text: string;
  language: string;
  voice: string | null;
}

export interface SandboxCall {
  sid: string;
  direction: 'outbound-api';
  from: string;
  to: string;
  status: CallStatus;
  /** Everything <Say> spoke, in order. */
  spoken: Spoken[];
  /** The keys of each press, in order (pressed inside a <Gather> or not). */
  digits: string[];
  /** True while a <Gather> waits for keys. */
  gathering: boolean;
  /** Why the application side ended the call: a webhook that failed, TwiML that did not parse. */
  error: string | null;
  createdAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  /** Whole seconds from answer to end (rounded up); 0 for a call never answered; null while it lasts. */
  duration: number | null;
}

export interface CallRequest {
  to: string;
  /** Where TwiML is fetched on answer; null when `twiml` is given inline. */
  url: string | null;
  method: HttpMethod;
  twiml: string | null;
  statusCallback: string | null;
  statusCallbackMethod: HttpMethod;
  statusCallbackEvents: CallEvent[];
  timeoutSeconds: number;
}

interface Program {
  verbs: VoiceVerb[];
  next: number;
  /** The URL the TwiML came from; relative URLs and a <Gather> without action resolve against it. */
  documentUrl: string | null;
}

interface Gathering {
  verb: GatherVerb;
  digits: string;
  documentUrl: string | null;
  timer: NodeJS.Timeout;
}

interface CallRecord extends Omit<SandboxCall, 'gathering'> {
  request: CallRequest;
  sequence: number;
  program: Program | null;
  gathering: Gathering | null;
  ringTimer: NodeJS.Timeout | null;
  /** This call's webhooks and TwiML, one after another, so callbacks reach Vigil in the order of events. */
  work: Promise<void>;
  cancelled: boolean;
}

const APPLICATION_ERROR = 'We are sorry, an application error has occurred. Goodbye.';

/** How long Twilio's text-to-speech takes to say a text: about 150 words a minute. */
function speakingMs(text: string): number {
  return text.split(' ').length * 400;
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

/**
 * The voice side of the sandbox: outbound calls that ring a pretend phone. A person (or a test) answers,
 * presses keys or hangs up; the sandbox fetches and runs the TwiML as Twilio does and reports progress to the
 * status callback. Supported TwiML: <Say>, <Gather> (digits), <Pause>, <Play> (ignored), <Redirect>, <Hangup>.
 */
export class Calls {
  readonly #calls: CallRecord[] = [];
  readonly #waiters = new Waiters<SandboxCall>('call');

  constructor(
    private readonly account: TwilioAccount,
    private readonly capacity = 200,
  ) {}

  list(filter: { to?: string; from?: string; status?: string } = {}): SandboxCall[] {
    return this.#calls
      .filter(
        (call) =>
          (!filter.to || call.to === filter.to) &&
          (!filter.from || call.from === filter.from) &&
          (!filter.status || call.status === filter.status),
      )
      .map(snapshot);
  }

  get(sid: string): SandboxCall | undefined {
    const call = this.#calls.find((c) => c.sid === sid);
    return call && snapshot(call);
  }

  waitFor(predicate: (call: SandboxCall) => boolean, timeoutMs: number): Promise<SandboxCall> {
    return this.#waiters.waitFor(this.list(), predicate, timeoutMs);
  }

  /** Places a call (the REST API has validated the request): queued now, ringing a moment later. */
  start(request: CallRequest): SandboxCall {
    const call: CallRecord = {
      sid: newSid('CA'),
      direction: 'outbound-api',
      from: this.account.phoneNumber,
      to: request.to,
      status: 'queued',
      spoken: [],
      digits: [],
      error: null,
      createdAt: new Date().toISOString(),
      answeredAt: null,
      endedAt: null,
      duration: null,
      request,
      sequence: 0,
      program: null,
      gathering: null,
      ringTimer: null,
      work: Promise.resolve(),
      cancelled: false,
    };
    const dropped = this.#calls.splice(this.capacity - 1);
    for (const old of dropped) this.#cancel(old);
    this.#calls.unshift(call);
    this.#changed(call);
    setTimeout(() => {
      if (call.status === 'queued' && !call.cancelled) this.#ring(call);
    }, STEP_MS).unref();
    return snapshot(call);
  }

  /** The person picks up: Twilio fetches the TwiML (or takes the inline TwiML) and runs it. */
  async answer(sid: string): Promise<SandboxCall> {
    const call = this.#require(sid, ['queued', 'ringing'], 'answered');
    if (call.status === 'queued') this.#ring(call);
    clearTimeout(call.ringTimer ?? undefined);
    this.#set(call, { status: 'in-progress', answeredAt: new Date().toISOString() });
    this.#statusCallback(call, 'answered');
    this.#enqueue(call, async () => {
      const { request } = call;
      if (request.twiml !== null) this.#load(call, request.twiml, null);
      else await this.#fetch(call, request.url!, request.method, {});
      await this.#run(call);
    });
    return this.#settled(call);
  }

  /** Keys pressed on the phone. Twilio only listens inside a <Gather>; other presses are recorded and ignored. */
  async press(sid: string, keys: string): Promise<SandboxCall> {
    if (!/^[0-9*#]{1,32}$/.test(keys)) {
      throw new PhoneActionError('INVALID', 'digits must be 1 to 32 of the keys 0-9, * and #.');
    }
    const call = this.#require(sid, ['in-progress'], 'pressed');
    call.digits.push(keys);
    this.#changed(call);
    for (const key of keys) {
      const gathering = call.gathering;
      if (!gathering) break;
      if (key === gathering.verb.finishOnKey) this.#endGather(call, key);
      else {
        gathering.digits += key;
        if (gathering.verb.numDigits !== null && gathering.digits.length >= gathering.verb.numDigits) {
          this.#endGather(call, '');
        }
      }
    }
    return this.#settled(call);
  }

  async hangUp(sid: string): Promise<SandboxCall> {
    this.#finish(this.#require(sid, ['in-progress'], 'hung up'), 'completed');
    return this.#settled(this.#require(sid));
  }

  /** Lets it ring out now instead of after the request's Timeout. */
  async leaveUnanswered(sid: string): Promise<SandboxCall> {
    const call = this.#require(sid, ['queued', 'ringing'], 'left unanswered');
    if (call.status === 'queued') this.#ring(call);
    this.#finish(call, 'no-answer');
    return this.#settled(call);
  }

  async busy(sid: string): Promise<SandboxCall> {
    this.#finish(this.#require(sid, ['queued', 'ringing'], 'busy'), 'busy');
    return this.#settled(this.#require(sid));
  }

  /** Stops every call where it is: no more timers, webhooks or TwiML. */
  stop(): void {
    for (const call of this.#calls) this.#cancel(call);
  }

  clear(): void {
    this.stop();
    this.#calls.length = 0;
  }

  #require(sid: string, states?: CallStatus[], action?: string): CallRecord {
    const call = this.#calls.find((c) => c.sid === sid);
    if (!call) throw new PhoneActionError('NOT_FOUND', `No call ${sid}.`);
    if (states && !states.includes(call.status)) {
      throw new PhoneActionError(
        'CONFLICT',
        `The call is ${call.status}: only a ${states.join(' or ')} call can be ${action}.`,
      );
    }
    return call;
  }

  #ring(call: CallRecord): void {
    this.#set(call, { status: 'ringing' });
    this.#statusCallback(call, 'initiated');
    this.#statusCallback(call, 'ringing');
    call.ringTimer = setTimeout(() => this.#finish(call, 'no-answer'), call.request.timeoutSeconds * 1000);
    call.ringTimer.unref();
  }

  #finish(call: CallRecord, status: CallStatus): void {
    if (FINAL.has(call.status)) return;
    clearTimeout(call.ringTimer ?? undefined);
    clearTimeout(call.gathering?.timer);
    const endedAt = new Date();
    const answeredAt = call.answeredAt ? Date.parse(call.answeredAt) : null;
    call.gathering = null;
    call.program = null;
    this.#set(call, {
      status,
      endedAt: endedAt.toISOString(),
      duration: answeredAt === null ? 0 : Math.max(1, Math.ceil((endedAt.getTime() - answeredAt) / 1000)),
    });
    this.#statusCallback(call, 'completed');
  }

  /** What Twilio reports for an application failure: the caller hears an apology and the call ends. */
  #fail(call: CallRecord, error: string): void {
    call.spoken.push({ text: APPLICATION_ERROR, language: 'en-US', voice: null });
    this.#set(call, { error });
    this.#finish(call, 'completed');
  }

  /** Fetches TwiML for the call (Url on answer, a Gather action, a Redirect) and loads it to run. */
  async #fetch(call: CallRecord, url: string, method: HttpMethod, extra: Record<string, string>) {
    const answer = await this.account.post(url, method, { ...this.#params(call), ...extra });
    if (call.status !== 'in-progress') return;
    if (answer.status === null || answer.status < 200 || answer.status >= 300) {
      this.#fail(call, `11200 HTTP retrieval failure: ${url} answered ${answer.status ?? answer.error}`);
      return;
    }
    this.#load(call, answer.body, url);
  }

  #load(call: CallRecord, xml: string, documentUrl: string | null): void {
    try {
      call.program = { verbs: parseVoiceTwiml(xml), next: 0, documentUrl };
    } catch (error) {
      this.#fail(call, `12100 Document parse failure: ${(error as Error).message}`);
    }
  }

  /** Runs the loaded TwiML until it waits for keys, hangs up or ends (which completes the call). */
  async #run(call: CallRecord): Promise<void> {
    // The sandbox speaks instantly, but a listener needs the time Twilio would take to say it all.
    let listeningMs = 0;
    while (call.status === 'in-progress' && call.program) {
      const { program } = call;
      const verb = program.verbs[program.next];
      program.next += 1;
      if (!verb) {
        this.#finish(call, 'completed');
        return;
      }
      switch (verb.verb) {
        case 'Say':
          this.#say(call, verb);
          listeningMs += speakingMs(verb.text);
          break;
        case 'Pause':
          listeningMs += verb.seconds * 1000;
          break;
        case 'Hangup':
          this.#finish(call, 'completed');
          return;
        case 'Redirect': {
          const url = this.#resolve(call, verb.url, program.documentUrl);
          if (url) await this.#fetch(call, url, verb.method, {});
          break;
        }
        case 'Gather':
          this.#startGather(call, verb, program.documentUrl, listeningMs);
          return;
        default:
          // <Play> and the verbs the sandbox does not model take no time here.
          break;
      }
    }
  }

  #say(call: CallRecord, verb: { text: string; language: string; voice: string | null }): void {
    call.spoken.push({ text: verb.text, language: verb.language, voice: verb.voice });
    this.#changed(call);
  }

  /** Twilio's timeout starts once what came before and the <Gather>'s own prompts have played. */
  #startGather(call: CallRecord, verb: GatherVerb, documentUrl: string | null, listeningMs: number): void {
    let waitMs = listeningMs + verb.timeoutSeconds * 1000;
    for (const prompt of verb.prompts) {
      if (prompt.verb === 'Say') {
        this.#say(call, prompt);
        waitMs += speakingMs(prompt.text);
      } else if (prompt.verb === 'Pause') waitMs += prompt.seconds * 1000;
    }
    const timer = setTimeout(() => this.#endGather(call, ''), waitMs);
    timer.unref();
    call.gathering = { verb, digits: '', documentUrl, timer };
    this.#changed(call);
  }

  /**
   * A <Gather> ends on its finish key, its numDigits or its timeout. With digits Twilio posts them to the
   * action and runs the TwiML that answers; without, it goes on with the verb after the <Gather>.
   */
  #endGather(call: CallRecord, finishedOnKey: string): void {
    const gathering = call.gathering;
    if (!gathering || call.status !== 'in-progress') return;
    clearTimeout(gathering.timer);
    call.gathering = null;
    this.#changed(call);
    this.#enqueue(call, async () => {
      const { verb, digits, documentUrl } = gathering;
      const action = verb.action ?? documentUrl;
      if (digits !== '' && action !== null) {
        const url = this.#resolve(call, action, documentUrl);
        if (!url) return;
        await this.#fetch(call, url, verb.method, { Digits: digits, FinishedOnKey: finishedOnKey });
      }
      await this.#run(call);
    });
  }

  #resolve(call: CallRecord, url: string, base: string | null): string | null {
    try {
      return new URL(url, base ?? undefined).toString();
    } catch {
      this.#fail(call, `21205 Url is not a valid URL: ${url}`);
      return null;
    }
  }

  /** The parameters Twilio sends with every request about a call. */
  #params(call: CallRecord): Record<string, string> {
    return {
      AccountSid: this.account.sid,
      ApiVersion: API_VERSION,
      CallSid: call.sid,
      CallStatus: call.status,
      Called: call.to,
      Caller: call.from,
      Direction: call.direction,
      From: call.from,
      To: call.to,
    };
  }

  /**
   * Posts a call progress event when the request asked for it; the final status (completed, busy, no-answer,
   * failed, canceled) is always posted, as Twilio does whenever a StatusCallback is set.
   */
  #statusCallback(call: CallRecord, event: CallEvent): void {
    const { statusCallback, statusCallbackMethod, statusCallbackEvents } = call.request;
    if (!statusCallback) return;
    if (event !== 'completed' && !statusCallbackEvents.includes(event)) return;
    const params = {
      ...this.#params(call),
      CallStatus: event === 'initiated' ? 'initiated' : call.status,
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(call.sequence),
      Timestamp: rfc2822(new Date()),
      ...(event === 'completed' ? { CallDuration: String(call.duration ?? 0) } : {}),
    };
    call.sequence += 1;
    this.#enqueue(call, async () => {
      await this.account.post(statusCallback, statusCallbackMethod, params);
    });
  }

  #enqueue(call: CallRecord, work: () => Promise<void>): void {
    call.work = call.work
      .then(async () => {
        if (!call.cancelled) await work();
      })
      .catch((error: Error) => this.#fail(call, `Sandbox error: ${error.message}`));
  }

  /** Resolves when the call has nothing left to do for now: its webhooks sent, its TwiML waiting or done. */
  async #settled(call: CallRecord): Promise<SandboxCall> {
    let seen: Promise<void>;
    do {
      seen = call.work;
      await seen;
    } while (seen !== call.work);
    return snapshot(call);
  }

  #set(call: CallRecord, changes: Partial<CallRecord>): void {
    Object.assign(call, changes);
    this.#changed(call);
  }

  #changed(call: CallRecord): void {
    this.#waiters.notify(snapshot(call));
  }

  #cancel(call: CallRecord): void {
    call.cancelled = true;
    clearTimeout(call.ringTimer ?? undefined);
    clearTimeout(call.gathering?.timer);
  }
}

function snapshot(call: CallRecord): SandboxCall {
  return {
    sid: call.sid,
    direction: call.direction,
    from: call.from,
    to: call.to,
    status: call.status,
    spoken: call.spoken.map((s) => ({ ...s })),
    digits: [...call.digits],
    gathering: call.gathering !== null,
    error: call.error,
    createdAt: call.createdAt,
    answeredAt: call.answeredAt,
    endedAt: call.endedAt,
    duration: call.duration,
  };
}
