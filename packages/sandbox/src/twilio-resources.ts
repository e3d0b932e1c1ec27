import { createHash } from 'node:crypto';
import { API_VERSION, isE164, type TwilioAccount } from './twilio-account.ts';
import type { CallEvent, CallRequest, SandboxCall } from './twilio-calls.ts';
import type { SandboxMessage } from './twilio-messaging.ts';
import type { HttpMethod } from './twilio-webhook.ts';

/**
 * Twilio's wire format for the two resources Vigil uses: the checks a create request passes (with Twilio's
 * error codes) and the resource JSON (snake_case, RFC 2822 dates in GMT, counts and durations as strings).
 */
export type Form = Record<string, string | string[] | undefined>;

/** An answer Twilio gives as `{ code, message, more_info, status }`. */
export class TwilioApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (code: number, message: string) => new TwilioApiError(400, code, message);

/** Form fields may repeat (StatusCallbackEvent does); single-valued ones take the first. */
function one(form: Form, name: string): string | undefined {
  const value = form[name];
  return Array.isArray(value) ? value[0] : value;
}

function all(form: Form, name: string): string[] {
  const value = form[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function methodOf(value: string | undefined): HttpMethod {
  return value?.toUpperCase() === 'GET' ? 'GET' : 'POST';
}

function statusCallbackOf(form: Form): string | null {
  const url = one(form, 'StatusCallback') || null;
  if (url && !isHttpUrl(url)) throw invalid(21609, `The StatusCallback URL ${url} is not a valid URL.`);
  return url;
}

/** POST Messages.json: To, From (the account's number), Body, StatusCallback. */
export function messageRequest(
  form: Form,
  account: TwilioAccount,
  isOptedOut: (number: string) => boolean,
): { to: string; body: string; statusCallback: string | null } {
  const to = one(form, 'To')?.trim();
  const from = one(form, 'From')?.trim();
  const body = one(form, 'Body') ?? '';
  if (!to) throw invalid(21604, "A 'To' phone number is required.");
  if (!from) throw invalid(21603, "A 'From' phone number is required.");
  if (body.trim() === '') throw invalid(21602, 'Message body is required.');
  if (!isE164(to)) throw invalid(21211, `The 'To' number ${to} is not a valid phone number.`);
  if (from !== account.phoneNumber) {
    throw invalid(
      21606,
      `The 'From' phone number provided (${from}) is not a valid message-capable Twilio phone number for this destination.`,
    );
  }
  if (body.length > 1600)
    throw invalid(21617, 'The concatenated message body exceeds the 1600 character limit.');
  const statusCallback = statusCallbackOf(form);
  if (isOptedOut(to)) throw invalid(21610, 'Attempt to send to unsubscribed recipient');
  return { to, body, statusCallback };
}

const CALL_EVENTS: readonly string[] = ['initiated', 'ringing', 'answered', 'completed'];

/** POST Calls.json: To, From, Url (with Method) or Twiml, StatusCallback and its events and method, Timeout. */
export function callRequest(form: Form, account: TwilioAccount, defaultTimeoutSeconds: number): CallRequest {
  const to = one(form, 'To')?.trim();
  const from = one(form, 'From')?.trim();
  const url = one(form, 'Url') || null;
  const twiml = one(form, 'Twiml') || null;
  if (!to) throw invalid(21201, "No 'To' number is specified");
  if (!from) throw invalid(21213, "No 'From' number is specified");
  if (!isE164(to)) throw invalid(21211, `Invalid 'To' Phone Number: ${to}`);
  if (from !== account.phoneNumber) {
    throw invalid(
      21210,
      `The source phone number provided, ${from}, is not yet verified for your account. You may only make calls from phone numbers that you've verified or purchased from Twilio.`,
    );
  }
  if (!url && !twiml) throw invalid(21205, 'Either Url or Twiml is required.');
  if (url && !isHttpUrl(url)) throw invalid(21205, `Url is not a valid URL: ${url}`);
  const timeout = Number(one(form, 'Timeout'));
  return {
    to,
    // Twilio runs inline Twiml in preference to fetching Url.
    url: twiml ? null : url,
    method: methodOf(one(form, 'Method')),
    twiml,
    statusCallback: statusCallbackOf(form),
    statusCallbackMethod: methodOf(one(form, 'StatusCallbackMethod')),
    // Each event may come as its own field or several in one, separated by spaces.
    statusCallbackEvents: all(form, 'StatusCallbackEvent')
      .flatMap((value) => value.split(/\s+/))
      .filter((event): event is CallEvent => CALL_EVENTS.includes(event)),
    timeoutSeconds: Number.isInteger(timeout) && timeout > 0 ? Math.min(timeout, 600) : defaultTimeoutSeconds,
  };
}

export function rfc2822(iso: string): string;
export function rfc2822(iso: string | null): string | null;
export function rfc2822(iso: string | null): string | null {
  return iso === null ? null : new Date(iso).toUTCString().replace('GMT', '+0000');
}

/** North American numbers as Twilio formats them, (415) 867-5309; others as they are. */
function formatted(number: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(number);
  return nanp ? `(${nanp[1]}) ${nanp[2]}-${nanp[3]}` : number;
}

export function accountPath(account: TwilioAccount): string {
  return `/${API_VERSION}/Accounts/${account.sid}`;
}

export function messageJson(message: SandboxMessage, account: TwilioAccount) {
  const base = `${accountPath(account)}/Messages/${message.sid}`;
  return {
    account_sid: account.sid,
    api_version: API_VERSION,
    body: message.body,
    date_created: rfc2822(message.createdAt),
    date_sent: rfc2822(message.sentAt),
    date_updated: rfc2822(message.updatedAt),
    direction: message.direction,
    error_code: message.errorCode,
    error_message: message.errorMessage,
    from: message.from,
    messaging_service_sid: null,
    num_media: '0',
    num_segments: String(message.numSegments),
    price: null,
    price_unit: 'USD',
    sid: message.sid,
    status: message.status,
    subresource_uris: { media: `${base}/Media.json` },
    to: message.to,
    uri: `${base}.json`,
  };
}

export function callJson(call: SandboxCall, account: TwilioAccount) {
  const base = `${accountPath(account)}/Calls/${call.sid}`;
  return {
    account_sid: account.sid,
    annotation: null,
    answered_by: null,
    api_version: API_VERSION,
    caller_name: null,
    date_created: rfc2822(call.createdAt),
    date_updated: rfc2822(call.endedAt ?? call.answeredAt ?? call.createdAt),
    direction: call.direction,
    duration: call.duration === null ? null : String(call.duration),
    end_time: rfc2822(call.endedAt),
    forwarded_from: null,
    from: call.from,
    from_formatted: formatted(call.from),
    group_sid: null,
    parent_call_sid: null,
    // A stable SID for the account's number, as an IncomingPhoneNumber would have.
    phone_number_sid: `PN${createHash('md5').update(call.from).digest('hex')}`,
    price: null,
    price_unit: 'USD',
    queue_time: '0',
    sid: call.sid,
    start_time: call.status === 'queued' ? null : rfc2822(call.answeredAt ?? call.createdAt),
    status: call.status,
    subresource_uris: {
      notifications: `${base}/Notifications.json`,
      recordings: `${base}/Recordings.json`,
    },
    to: call.to,
    to_formatted: formatted(call.to),
    trunk_sid: null,
    uri: `${base}.json`,
  };
}
