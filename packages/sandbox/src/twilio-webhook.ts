import { createHmac } from 'node:crypto';

export type HttpMethod = 'GET' | 'POST';

/**
 * Twilio's X-Twilio-Signature: base64 HMAC-SHA1, keyed with the account's auth token, over the full URL as
 * requested (query string included) followed by every POST parameter, sorted by name, each name immediately
 * followed by its value. A GET request carries its parameters in the URL, so it passes none here.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string | string[]> = {},
): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    for (const one of Array.isArray(value) ? [...value].sort() : [value]) data += name + one;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export interface WebhookAnswer {
  /** The HTTP status Vigil answered, or null when the request failed (refused, timed out). */
  status: number | null;
  body: string;
  error: string | null;
}

/** Twilio gives up on a webhook after 15 seconds. */
const WEBHOOK_TIMEOUT_MS = 15_000;

/**
 * Sends one request the way Twilio calls an application: form-encoded parameters (in the query string for
 * GET), signed with X-Twilio-Signature. Never throws: a failed request is reported in the answer.
 */
export async function callWebhook(
  authToken: string,
  target: { url: string; method: HttpMethod },
  params: Record<string, string>,
): Promise<WebhookAnswer> {
  let url = target.url;
  let body: URLSearchParams | undefined;
  if (target.method === 'GET') {
    const withQuery = new URL(url);
    for (const [name, value] of Object.entries(params)) withQuery.searchParams.append(name, value);
    url = withQuery.toString();
  } else {
    body = new URLSearchParams(params);
  }
  try {
    const response = await fetch(url, {
      method: target.method,
      headers: {
        'X-Twilio-Signature': twilioSignature(authToken, url, body ? params : {}),
        'User-Agent': 'TwilioProxy/1.1',
        Accept: '*/*',
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' } : {}),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    return { status: response.status, body: await response.text(), error: null };
  } catch (error) {
    return { status: null, body: '', error: (error as Error).message };
  }
}
