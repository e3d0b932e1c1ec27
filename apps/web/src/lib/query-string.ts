/**
 * Query strings as the spec reads them: from the URL's search part, ignoring the leading '?'.
 * Keys and values are decoded once (form encoding: '+' is a space); a key given twice keeps its first value.
 */
export type Query = Record<string, string>;

export function parseQuery(search: string): Query {
  const query: Query = {};
  const text = search.startsWith('?') ? search.slice(1) : search;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const key = decode(at === -1 ? pair : pair.slice(0, at));
    const value = at === -1 ? '' : decode(pair.slice(at + 1));
    if (!Object.hasOwn(query, key)) query[key] = value;
  }
  return query;
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Builds '?a=1&b=2' from the defined, non-empty values, or '' when there are none. */
export function stringifyQuery(query: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A page number from the address: a whole number from 1; anything else is the first page. */
export function pageFromQuery(value: string | undefined): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
