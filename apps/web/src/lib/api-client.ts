import axios, { type AxiosRequestConfig } from 'axios';
import { notifications } from '@mantine/notifications';
import type { ErrorDetail } from '@vigil/contracts';
import { clearSession, getToken, rememberReturnPath } from './session.ts';
import { takeEarly } from './early-requests.ts';

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

export type RequestOptions = Pick<AxiosRequestConfig, 'params' | 'signal' | 'headers'> & {
  /** A failure shows no toast (a background count polled every 30 s; the next poll tries again). 401 still signs out. */
  quiet?: boolean;
};

export interface ApiClient {
  get<T>(url: string, options?: RequestOptions): Promise<ApiResult<T>>;
  delete<T>(url: string, options?: RequestOptions): Promise<ApiResult<T>>;
  post<T>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>>;
  put<T>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T>>;
}

export interface ApiClientOptions {
  /** Same origin by default: the API and the app are served by one server (a Vite proxy in development). */
  baseURL?: string;
  timeout?: number;
  adapter?: AxiosRequestConfig['adapter'];
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
  const http = axios.create({
    baseURL: options.baseURL ?? '',
    timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(options.adapter ? { adapter: options.adapter } : {}),
  });
  http.interceptors.request.use((config) => {
    const token = getToken();
    if (token) config.headers.set('Authorization', token);
    return config;
  });

  async function request<T>({ quiet = false, ...config }: AxiosRequestConfig & { quiet?: boolean }) {
    if (config.method === 'GET' && config.url) {
      const body = await takeEarly(config.url, config.params as Record<string, string | number> | undefined);
      if (isRecord(body) && !config.signal?.aborted)
        return { ...(body as { data: T }), ok: true as const, status: 200 };
    }
    try {
      const response = await http.request<unknown>(config);
      const body = isRecord(response.data) ? response.data : { data: response.data };
      return { ...(body as { data: T }), ok: true as const, status: response.status };
    } catch (error) {
      return fail(error, quiet ? () => undefined : showError);
    }
  }

  function fail(error: unknown, showError: (message: string) => void): ApiFailure {
    if (axios.isCancel(error)) {
      return {
        ok: false,
        status: 0,
        data: undefined,
        code: 'CANCELLED',
        message: 'The request was cancelled.',
      };
    }
    const response = axios.isAxiosError(error) ? error.response : undefined;
    if (!response) {
      showError(UNKNOWN_ERROR_MESSAGE);
      return { ok: false, status: 0, data: undefined, code: 'NETWORK_ERROR', message: UNKNOWN_ERROR_MESSAGE };
    }
    const body = isRecord(response.data) ? response.data : {};
    const message =
      typeof body.message === 'string' && body.message.trim() ? body.message : UNKNOWN_ERROR_MESSAGE;
    const failure: ApiFailure = {
      ok: false,
      status: response.status,
      data: undefined,
      code: typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
      message,
      ...(Array.isArray(body.details) ? { details: body.details as ErrorDetail[] } : {}),
    };
    if (response.status === 401) {
      clearSession();
      rememberReturnPath(currentAppPath());
      navigate(LOGIN_URL);
    } else {
      showError(message);
    }
    return failure;
  }

  return {
    get: (url, opts) => request({ ...opts, url, method: 'GET' }),
    delete: (url, opts) => request({ ...opts, url, method: 'DELETE' }),
    post: (url, body, opts) => request({ ...opts, url, method: 'POST', data: body ?? {} }),
    put: (url, body, opts) => request({ ...opts, url, method: 'PUT', data: body ?? {} }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const api = createApiClient();
