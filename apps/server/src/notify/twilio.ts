import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TwilioSettings } from '../config.ts';

const API_VERSION = '2010-04-01';
const REQUEST_TIMEOUT_MS = 10_000;

/** Twilio answered with an error, or could not be reached. */
export class TwilioError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when Twilio was not reached (connection refused, timeout). */
    readonly status: number,
    /** Twilio's error code (https://www.twilio.com/docs/errors/<code>), when it gave one. */
    readonly code: number | null,
  ) {
    super(message);
    this.name = 'TwilioError';
  }

  /** 429, 5xx and network failures may pass; any other 4xx is a refusal that a retry repeats. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** Twilio's error code for a number that replied STOP (an opted-out recipient). */
export const TWILIO_UNSUBSCRIBED = 21610;

export interface TwilioResource {
  sid: string;
  status: string;
  to: string;
  createdAt: Date;
}

export interface SmsRequest {
  to: string;
  body: string;
  statusCallback?: string;
}

export interface CallRequest {
  to: string;
  /** The TwiML the call runs once answered. */
  twiml: string;
  statusCallback?: string;
  /** Seconds it rings before Twilio gives up with no-answer. */
  timeoutSeconds?: number;
}

/** SMS and calls through Twilio's REST API (2010-04-01). */
export interface PhoneSender {
  readonly fromNumber: string;
  sendSms(request: SmsRequest): Promise<TwilioResource>;
  startCall(request: CallRequest): Promise<TwilioResource>;
  /** Messages or calls to `to` created at or after `since`, newest first: to find what a dead worker sent. */
  recent(kind: 'sms' | 'call', to: string, since: Date): Promise<TwilioResource[]>;
}

interface ResourceBody {
  sid: string;
  status: string;
  to: string;
  date_created: string | null;
}

/**
 * A small typed client of Twilio's REST API: the SDK cannot be pointed at the sandbox, and Vigil needs only
 * two resources. Requests are form-encoded with HTTP Basic auth (account SID and auth token).
 */
export function createTwilioClient(settings: TwilioSettings, fetchImpl: typeof fetch = fetch): PhoneSender {
  const base = `${settings.apiUrl}/${API_VERSION}/Accounts/${settings.accountSid}`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;

  async function call<T>(method: 'GET' | 'POST', path: string, form?: URLSearchParams): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form?.toString(),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError' ? 'did not answer in time' : 'could not be reached';
      throw new TwilioError(`Twilio ${reason}: ${(error as Error).message}`, 0, null);
    }
    const text = await response.text();
    if (!response.ok) {
      const body = parseJson(text) as { code?: number; message?: string } | null;
      const message = body?.message ?? (text.slice(0, 200) || response.statusText);
      throw new TwilioError(
        `Twilio refused (${response.status}${body?.code ? `, error ${body.code}` : ''}): ${message}`,
        response.status,
        body?.code ?? null,
      );
    }
    const body = parseJson(text);
    if (body === null) throw new TwilioError('Twilio answered with something that is not JSON.', 502, null);
    return body as T;
  }

  const form = (fields: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined) params.append(key, String(value));
    return params;
  };

  return {
    fromNumber: settings.fromNumber,
    async sendSms(request) {
      const body = await call<ResourceBody>(
        'POST',
        '/Messages.json',
        form({
          To: request.to,
          From: settings.fromNumber,
          Body: request.body,
          StatusCallback: request.statusCallback,
        }),
      );
      return toResource(body);
    },
    async startCall(request) {
      const params = form({
        To: request.to,
        From: settings.fromNumber,
        Twiml: request.twiml,
        Timeout: request.timeoutSeconds,
        StatusCallback: request.statusCallback,
        StatusCallbackMethod: request.statusCallback ? 'POST' : undefined,
      });
      if (request.statusCallback) {
        for (const event of ['initiated', 'ringing', 'answered', 'completed'])
          params.append('StatusCallbackEvent', event);
      }
      return toResource(await call<ResourceBody>('POST', '/Calls.json', params));
    },
    async recent(kind, to, since) {
      // No date filter: Twilio filters calls by start time and messages by sent date, which a queued one lacks.
      const params = new URLSearchParams({ To: to, From: settings.fromNumber, PageSize: '50' });
      const path = kind === 'sms' ? '/Messages.json' : '/Calls.json';
      const body = await call<{ messages?: ResourceBody[]; calls?: ResourceBody[] }>(
        'GET',
        `${path}?${params}`,
      );
      return (body.messages ?? body.calls ?? [])
        .map(toResource)
        .filter((resource) => resource.createdAt.getTime() >= since.getTime());
    },
  };
}

function toResource(body: ResourceBody): TwilioResource {
  return {
    sid: body.sid,
    status: body.status,
    to: body.to,
    // Twilio dates are RFC 2822 ("Sat, 21 Nov 2026 10:00:00 +0000"), which Date parses.
    createdAt: body.date_created ? new Date(body.date_created) : new Date(0),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL Twilio requested followed by
 * each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string | string[]>,
): string {
  const pairs = Object.entries(params)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((item) => [key, item] as const))
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const data = url + pairs.map(([key, value]) => key + value).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string | string[]>,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
