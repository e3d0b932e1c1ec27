import type { stringifyQuery } from './query-string.ts';
import { getToken } from './cookies.ts';

/** A GET's query parameters, as the API client takes them; those without a value are not sent. */
type Params = Parameters<typeof stringifyQuery>[0];

/** An early answer is used only this soon after it was asked for; later, the page asks again. */
const FRESH_MS = 10_000;

interface Early {
  at: number;
  /** The answer's JSON when it succeeded, undefined otherwise; read as soon as the answer comes. */
  body: Promise<unknown>;
  /** That JSON once read, for a render that wants it without waiting (`peekEarly`). */
  read?: { body: unknown };
}

// On the page itself, not in this module: the early script (src/early.ts) has its own copy of this module, and
// what it asks for is taken by the app's.
const shared = globalThis as { __vigilEarly?: Map<string, Early> };
const early = (shared.__vigilEarly ??= new Map<string, Early>());

const isFresh = (entry: Early) => Date.now() - entry.at <= FRESH_MS;

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
 * Asks for a GET the first page is about to make, before the page's code has arrived: on a phone, the code and
 * its data then arrive together instead of one after the other. Plain `fetch`, so the HTTP client need not be
 * loaded yet; the client takes the answer (`takeEarly`) when the page asks. Only for a signed-in person, and only
 * once: a GET asked for already (by the early script) and not yet taken is not asked for again.
 */
export function requestEarly(url: string, params?: Params): void {
  const token = getToken();
  if (!token) return;
  const key = keyOf(token, url, params);
  const asked = early.get(key);
  if (asked && isFresh(asked)) return;
  const query = key.slice(key.indexOf('?'));
  const entry: Early = {
    at: Date.now(),
    body: fetch(`${url}${query === '?' ? '' : query}`, {
      headers: { Authorization: token, Accept: 'application/json' },
      credentials: 'same-origin',
    })
      .then((response) => (response.ok ? (response.json() as Promise<unknown>) : undefined))
      .catch(() => undefined),
  };
  void entry.body.then((body) => (entry.read = { body }));
  early.set(key, entry);
}

/** Forgets what was asked for early and not taken: for tests, between cases (in the app it goes stale by itself). */
export function forgetEarlyRequests(): void {
  early.clear();
}

/** The entry for this GET when `ready` says so, taken (an early answer is used once), if it is fresh. */
function take(url: string, params?: Params, ready = (_entry: Early) => true): Early | undefined {
  const token = getToken();
  if (early.size === 0 || !token) return undefined;
  const key = keyOf(token, url, params);
  const entry = early.get(key);
  if (!entry || !ready(entry)) return undefined;
  early.delete(key);
  return isFresh(entry) ? entry : undefined;
}

/**
 * The body of an early answer to this GET, once, when it succeeded and is fresh; otherwise undefined and the
 * caller asks as usual (so failures, a 401 included, are handled the one way the client handles them).
 */
export async function takeEarly(url: string, params?: Params): Promise<unknown> {
  return take(url, params)?.body;
}

/**
 * The body of an early answer to this GET that has already come and succeeded, taken, so a page's first render
 * shows it instead of a spinner and one more render; undefined when it has not (yet), and then it stays for
 * `takeEarly`. A page whose first render takes it does not ask again.
 */
export function peekEarly(url: string, params?: Params): unknown {
  return take(url, params, (entry) => entry.read?.body !== undefined)?.read?.body;
}
