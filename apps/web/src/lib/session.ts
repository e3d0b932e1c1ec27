import Cookies from 'js-cookie';
import type { Session, UserInfo } from '@vigil/contracts';
import { MONITOR_KEY_COOKIE, TOKEN_COOKIE, forgetCookies } from './cookies.ts';

/**
 * The session as the spec names it: cookies `token` and `monitor_key`, the fetched user in localStorage
 * `userInfo`, and the optional `AB_PRICING` flag. Cookies use path '/' so the same-origin API calls and
 * every page under /app see them. They are read in `cookies.ts` (what the early script needs) and written here.
 */
export { MONITOR_KEY_COOKIE, TOKEN_COOKIE, getToken } from './cookies.ts';
export const USER_INFO_KEY = 'userInfo';
export const AB_PRICING_KEY = 'AB_PRICING';

const COOKIE_OPTIONS: Cookies.CookieAttributes = { path: '/', sameSite: 'lax', expires: 30 };

export function removeToken(): void {
  forgetCookies();
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
}

/** Stores a new session; the stored user of any previous session is dropped so the shell never shows it. */
export function startSession(session: Pick<Session, 'token' | 'monitor_key'>): void {
  forgetCookies();
  Cookies.set(TOKEN_COOKIE, session.token, {
    ...COOKIE_OPTIONS,
    secure: window.location.protocol === 'https:',
  });
  Cookies.set(MONITOR_KEY_COOKIE, session.monitor_key, {
    ...COOKIE_OPTIONS,
    secure: window.location.protocol === 'https:',
  });
  clearUserInfo();
}

export function clearSession(): void {
  forgetCookies();
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
  Cookies.remove(MONITOR_KEY_COOKIE, { path: '/' });
  clearUserInfo();
}

const RETURN_PATH_KEY = 'vigil.returnTo';
/** Pages the app lands on anyway, or that only a signed-out person sees: never worth returning to. */
const NOT_A_RETURN = /^\/(?:$|monitor\/?$|login|register|oauth)/;

/**
 * The page a signed-out person opened (an alert email's link to /app/alerts, say), kept for this tab so
 * that signing in — with a password, with Google, or after registering and onboarding — lands there.
 * Only an in-app path (below /app, without it) is kept, so the stored value cannot send anyone elsewhere.
 */
export function rememberReturnPath(path: string): void {
  if (!isReturnPath(path)) return;
  try {
    window.sessionStorage.setItem(RETURN_PATH_KEY, path);
  } catch {
    // No storage: sign-in lands on the monitors, as it would have anyway.
  }
}

/** The remembered page, if any (kept until it is reached or the person logs out). */
export function returnPath(): string | null {
  let path: string | null = null;
  try {
    path = window.sessionStorage.getItem(RETURN_PATH_KEY);
  } catch {
    return null;
  }
  return path && isReturnPath(path) ? path : null;
}

export function forgetReturnPath(): void {
  try {
    window.sessionStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    // Nothing was stored.
  }
}

function isReturnPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') && !NOT_A_RETURN.test(path);
}

/** `AB_PRICING` counts as set when it holds any non-empty value. */
export function isAbPricingSet(): boolean {
  return Boolean(readStorage(AB_PRICING_KEY));
}

// The stored user is read by the shell, the settings page and the startup gate; a tiny store lets all of
// them re-render when it changes (here or in another tab), without a state library.
const listeners = new Set<() => void>();
let memoryRaw: string | null = null;
let cachedRaw: string | null | undefined;
let cachedUser: UserInfo | null = null;

export function getUserInfo(): UserInfo | null {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedUser = parseUserInfo(raw);
  }
  return cachedUser;
}

export function setUserInfo(user: UserInfo): void {
  writeRaw(JSON.stringify(user));
  emit();
}

export function clearUserInfo(): void {
  writeRaw(null);
  emit();
}

export function subscribeUserInfo(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === USER_INFO_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function emit(): void {
  for (const listener of listeners) listener();
}

function parseUserInfo(raw: string | null): UserInfo | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && 'email' in value ? (value as UserInfo) : null;
  } catch {
    return null;
  }
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

// Storage can be unavailable (private mode, disabled); the user then lives in memory for this page load.
function readRaw(): string | null {
  try {
    return window.localStorage.getItem(USER_INFO_KEY);
  } catch {
    return memoryRaw;
  }
}

function writeRaw(value: string | null): void {
  memoryRaw = value;
  try {
    if (value === null) window.localStorage.removeItem(USER_INFO_KEY);
    else window.localStorage.setItem(USER_INFO_KEY, value);
  } catch {
    // memoryRaw above keeps it.
  }
}
