import { notifications } from '@mantine/notifications';
import type { ErrorDetail } from '@vigil/contracts';
import { clearSession, getToken, rememberReturnPath } from './session.ts';
import { peekEarly, takeEarly } from './early-requests.ts';
import { stringifyQuery } from './query-string.ts';

export const REQUEST_TIMEOUT_MS = 50_000;
/** The spec's fallback text, spelled as the spec spells it. */
export const UNKNOWN_ERROR_MESSAGE = 'unkow error';
export const LOGIN_URL = '/app/login';

export interface ApiSuccess<T> {
  ok: true;
  status: number;
  data: T;
}

/**
 * A failed call, passed on as a value: the client has already shown the error toast (or, on 401, ended the
 * session), so callers only look at `ok`/`status` to decide what to render next.
 * `status` is 0 when no response arrived (network error, timeout, cancelled).
 */
export interface ApiFailure {
  ok: false;
  status: number;
  data: undefined;
  code: string;
  message: string;
  details?: ErrorDetail[];
}

export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

export interface RequestOptions {
  /** The query string's parameters; those without a value (undefined, null, '') are left out. */
  params?: Parameters<typeof stringifyQuery>[0];
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** A failure shows no toast (a background count polled every 30 s; the next poll tries again). 401 still signs out. */
  quiet?: boolean;
}

export interface ApiClient {
  get<T>(url: string, options?: RequestOptions): Promise<ApiResult<T>>;
  delete<T>(url: string, options?: RequestOptions): Promise<ApiResult<T>>;
  post<T>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>>;
  put<T>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>>;
  /**
   * The `data` of a GET asked for as the entry ran (`requestEarly`) whose answer has already come, for a first
   * render; undefined otherwise. It is then taken: the page does not ask for it again.
   */
  peek<T>(url: string, params?: RequestOptions['params']): T | undefined;
}

export interface ApiClientOptions {
  /** Same origin by default: the API and the app are served by one server (a Vite proxy in development). */
  baseURL?: string;
  timeout?: number;
  /** The browser's `fetch` by default (read at each request). */
  fetch?: typeof fetch;
  /** Leaves the page on a 401; a full page load, so no state of the ended session survives. */
  navigate?: (url: string) => void;
  /** Shows an error to the user; by default the top-center 'Error' toast. */
  showError?: (message: string) => void;
}

/** Where the browser is, as a path under /app without it (what sign-in may return to). */
function currentAppPath(): string {
  const { pathname, search } = window.location;
  return pathname.startsWith('/app/') ? pathname.slice('/app'.length) + search : '';
}

export function showErrorToast(message: string): void {
  notifications.show({ title: 'Error', message, color: 'red', position: 'top-center' });
}

/**
 * The one HTTP client of the app. Every request carries the token cookie as its Authorization header.
 * Every answer resolves — success as `{ ok, status, ...body }` (so `{ data, status }`), failure as an
 * `ApiFailure` — and the failure handling lives here only:
 * - 401: both cookies and the stored user are removed and the browser goes to /app/login (no toast);
 * - any other error status, a network error or a timeout: the 'Error' toast with the server's `message`,
 *   or 'unkow error' when there is none;
 * - a request cancelled by its caller (AbortSignal): nothing is shown.
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const navigate = options.navigate ?? ((url: string) => window.location.assign(url));
  const showError = options.showError ?? showErrorToast;
  const baseURL = options.baseURL ?? '';
  const timeoutMs = options.timeout ?? REQUEST_TIMEOUT_MS;

  async function request<T>(
    method: string,
    url: string,
    { quiet = false, params, signal, headers }: RequestOptions = {},
    body?: unknown,
  ): Promise<ApiResult<T>> {
    if (method === 'GET') {
      const early = await takeEarly(url, params);
      if (isRecord(early) && !signal?.aborted) return { ...(early as { data: T }), ok: true, status: 200 };
    }
    const notify = quiet ? () => undefined : showError;
    if (signal?.aborted) return cancelled();
    // One signal for the caller's cancel and the timeout; which of the two ended it decides what is shown.
    const controller = new AbortController();
    const cancel = () => controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    const timer = setTimeout(cancel, timeoutMs);
    try {
      const token = getToken();
      const response = await (options.fetch ?? fetch)(
        baseURL + url + (params ? stringifyQuery(params) : ''),
        {
          method,
          headers: {
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...(token ? { Authorization: token } : {}),
            ...headers,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          credentials: 'same-origin',
          signal: controller.signal,
        },
      );
      const data = parseBody(await response.text());
      if (!response.ok) return failed(response.status, data, notify);
      const answer = isRecord(data) ? data : { data };
      return { ...(answer as { data: T }), ok: true, status: response.status };
    } catch {
      if (signal?.aborted) return cancelled();
      // No answer: the network, or the timeout.
      notify(UNKNOWN_ERROR_MESSAGE);
      return { ok: false, status: 0, data: undefined, code: 'NETWORK_ERROR', message: UNKNOWN_ERROR_MESSAGE };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  function failed(status: number, data: unknown, showError: (message: string) => void): ApiFailure {
    const body = isRecord(data) ? data : {};
    const message =
      typeof body.message === 'string' && body.message.trim() ? body.message : UNKNOWN_ERROR_MESSAGE;
    const failure: ApiFailure = {
      ok: false,
      status,
      data: undefined,
      code: typeof body.code === 'string' ? body.code : `HTTP_${status}`,
      message,
      ...(Array.isArray(body.details) ? { details: body.details as ErrorDetail[] } : {}),
    };
    if (status === 401) {
      clearSession();
      rememberReturnPath(currentAppPath());
      navigate(LOGIN_URL);
    } else {
      showError(message);
    }
    return failure;
  }

  return {
    get: (url, opts) => request('GET', url, opts),
    delete: (url, opts) => request('DELETE', url, opts),
    post: (url, body, opts) => request('POST', url, opts, body ?? {}),
    put: (url, body, opts) => request('PUT', url, opts, body ?? {}),
    peek: <T>(url: string, params?: RequestOptions['params']) => {
      const early = peekEarly(url, params);
      return isRecord(early) ? (early as { data: T }).data : undefined;
    },
  };
}

function cancelled(): ApiFailure {
  return { ok: false, status: 0, data: undefined, code: 'CANCELLED', message: 'The request was cancelled.' };
}

/** The answer's JSON, or its text when it is not JSON ('' when empty). */
function parseBody(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const api = createApiClient();
