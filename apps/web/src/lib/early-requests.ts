import type { stringifyQuery } from './query-string.ts';
import { getToken } from './session.ts';

/** A GET's query parameters, as the API client takes them; those without a value are not sent. */
type Params = Parameters<typeof stringifyQuery>[0];

/** An early answer is used only this soon after it was asked for; later, the page asks again. */
const FRESH_MS = 10_000;

const early = new Map<string, { at: number; response: Promise<Response | null> }>();

function keyOf(token: string, url: string, params: Params = {}): string {
  const query = new URLSearchParams(
    Object.entries(params)
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([name, value]) => [name, String(value)])
      .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)),
  ).toString();
  return `${token} ${url}?${query}`;
}

/**
 * Asks for a GET the first page is about to make, as the entry runs: on a phone, the page's code and its data
 * then arrive together instead of one after the other. Plain `fetch`, so the HTTP client need not be loaded yet;
 * the client takes the answer (`takeEarly`) when the page asks. Only for a signed-in person.
 */
export function requestEarly(url: string, params?: Params): void {
  const token = getToken();
  if (!token) return;
  const key = keyOf(token, url, params);
  const query = key.slice(key.indexOf('?'));
  const response = fetch(`${url}${query === '?' ? '' : query}`, {
    headers: { Authorization: token, Accept: 'application/json' },
    credentials: 'same-origin',
  }).catch(() => null);
  early.set(key, { at: Date.now(), response });
}

/**
 * The body of an early answer to this GET, once, when it succeeded and is fresh; otherwise undefined and the
 * caller asks as usual (so failures, a 401 included, are handled the one way the client handles them).
 */
export async function takeEarly(url: string, params?: Params): Promise<unknown> {
  const token = getToken();
  if (early.size === 0 || !token) return undefined;
  const key = keyOf(token, url, params);
  const entry = early.get(key);
  if (!entry) return undefined;
  early.delete(key);
  if (Date.now() - entry.at > FRESH_MS) return undefined;
  const response = await entry.response;
  if (!response?.ok) return undefined;
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}
