/** The session's cookies, as the spec names them (written by `session.ts`). */
export const TOKEN_COOKIE = 'token';
export const MONITOR_KEY_COOKIE = 'monitor_key';

/**
 * The page's cookies by name, read as js-cookie reads them (its `get()` with the default converter: the first of
 * a name wins, quotes are dropped, %-escapes decoded, a cookie that does not decode is left out), without loading
 * js-cookie: this module is all the early script (src/early.ts) needs of the session, and js-cookie was three
 * quarters of it. A test holds the two together.
 */
export function parseCookies(header: string): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const pair of header ? header.split('; ') : []) {
    const [rawName = '', ...rest] = pair.split('=');
    let value = rest.join('=');
    try {
      const name = decodeURIComponent(rawName);
      if (name in jar) continue;
      if (value[0] === '"') value = value.slice(1, -1);
      jar[name] = value.replace(/(%[\dA-F]{2})+/gi, decodeURIComponent);
    } catch {
      // Left out, as js-cookie leaves it.
    }
  }
  return jar;
}

// Reading document.cookie is a synchronous request to the browser process, a few milliseconds each while a page
// loads, and a first load reads the token a dozen times (the route's preload, the early requests, the API client,
// the startup gate). So the cookies are read once and the copy kept until the current script's microtasks have
// run, one snapshot for one piece of work; `session.ts`'s writes drop it at once (`forgetCookies`).
let cookies: Record<string, string> | null = null;

function readCookie(name: string): string | undefined {
  if (!cookies) {
    // The build's prerender runs without a document, where there are no cookies to read.
    cookies = typeof document === 'undefined' ? {} : parseCookies(document.cookie);
    queueMicrotask(forgetCookies);
  }
  return cookies[name];
}

export function forgetCookies(): void {
  cookies = null;
}

export function getToken(): string | undefined {
  return readCookie(TOKEN_COOKIE) || undefined;
}
