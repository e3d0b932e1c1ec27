import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Cookies from 'js-cookie';
import { notifications } from '@mantine/notifications';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createApiClient, LOGIN_URL, REQUEST_TIMEOUT_MS, UNKNOWN_ERROR_MESSAGE } from './api-client.ts';
import { getUserInfo, setUserInfo } from './session.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let baseURL: string;
let handler: Handler;
const seen: { method?: string; url?: string; authorization?: string; contentType?: string; body?: string }[] =
  [];

function reply(status: number, body?: unknown): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': 'authorization, content-type',
          'access-control-allow-methods': 'GET, POST, PUT, DELETE',
        });
        res.end();
        return;
      }
      seen.push({
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const user = {
  email: 'owner@shop.com',
  industry: 'Pets',
  telPhone: null,
  contactEmail: 'owner@shop.com',
  plan: 'Free',
  planExpiresin: '0' as const,
};

let navigate: ReturnType<typeof vi.fn<(url: string) => void>>;
let show: MockInstance<typeof notifications.show>;

beforeEach(() => {
  seen.length = 0;
  navigate = vi.fn<(url: string) => void>();
  show = vi.spyOn(notifications, 'show').mockReturnValue('id');
  return () => show.mockRestore();
});

const client = () => createApiClient({ baseURL, navigate });

describe('api client', () => {
  it('sends the token cookie as the Authorization header and JSON bodies', async () => {
    Cookies.set('token', 'tok-123', { path: '/' });
    handler = reply(200, { data: { ok: 1 } });
    await client().post('/monitor-bff/v1/user/logout');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/monitor-bff/v1/user/logout',
      authorization: 'tok-123',
      body: '{}',
    });
    expect(seen[0]?.contentType).toContain('application/json');
  });

  it('sends no Authorization header without a token', async () => {
    handler = reply(200, { data: null });
    await client().get('/monitor-bff/plans');
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('unwraps a success to the body fields plus status', async () => {
    handler = reply(201, { data: { token: 't', monitor_key: 'k' } });
    const result = await client().post('/oauth-bff/v1/user/register', { email: 'a@b.co', password: 'x' });
    expect(result).toEqual({ ok: true, status: 201, data: { token: 't', monitor_key: 'k' } });
    expect(show).not.toHaveBeenCalled();
  });

  it('passes query parameters', async () => {
    handler = reply(200, { data: { list: [] } });
    await client().get('/monitor-bff/monitor', { params: { page: 2, pageSize: 20 } });
    expect(seen[0]?.url).toBe('/monitor-bff/monitor?page=2&pageSize=20');
  });

  it('on 401 removes both cookies and the stored user, goes to /app/login, shows no toast and resolves', async () => {
    Cookies.set('token', 'expired', { path: '/' });
    Cookies.set('monitor_key', 'mk', { path: '/' });
    setUserInfo(user);
    handler = reply(401, { code: 'UNAUTHORIZED', message: 'Your session has ended. Sign in again.' });
    const result = await client().get('/monitor-bff/user-info');
    expect(result).toMatchObject({ ok: false, status: 401, code: 'UNAUTHORIZED', data: undefined });
    expect(Cookies.get('token')).toBeUndefined();
    expect(Cookies.get('monitor_key')).toBeUndefined();
    expect(getUserInfo()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith(LOGIN_URL);
    expect(LOGIN_URL).toBe('/app/login');
    expect(show).not.toHaveBeenCalled();
  });

  it("on 400 shows the 'Error' toast at top-center with the server's message and resolves with the error", async () => {
    Cookies.set('token', 'tok', { path: '/' });
    handler = reply(400, {
      code: 'INVALID',
      message: 'The email or password is wrong.',
      details: [{ path: 'password', message: 'wrong' }],
    });
    const result = await client().post('/oauth-bff/v1/user/login', { email: 'a@b.co', password: 'nope' });
    expect(result).toEqual({
      ok: false,
      status: 400,
      data: undefined,
      code: 'INVALID',
      message: 'The email or password is wrong.',
      details: [{ path: 'password', message: 'wrong' }],
    });
    expect(show).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        title: 'Error',
        message: 'The email or password is wrong.',
        position: 'top-center',
      }),
    );
    expect(Cookies.get('token')).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();
  });

  it("on 500 without a message shows 'unkow error'", async () => {
    handler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html', 'access-control-allow-origin': '*' });
      res.end('<h1>Bad gateway</h1>');
    };
    const result = await client().get('/monitor-bff/user-info');
    expect(result).toMatchObject({
      ok: false,
      status: 500,
      code: 'HTTP_500',
      message: UNKNOWN_ERROR_MESSAGE,
    });
    expect(UNKNOWN_ERROR_MESSAGE).toBe('unkow error');
    expect(show).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ title: 'Error', message: 'unkow error', position: 'top-center' }),
    );
  });

  it('on other error statuses (429) also toasts the server message', async () => {
    handler = reply(429, { code: 'RATE_LIMITED', message: 'Too many tries. Try again in 15 minutes.' });
    const result = await client().post('/oauth-bff/v1/user/login', {});
    expect(result).toMatchObject({ ok: false, status: 429, code: 'RATE_LIMITED' });
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Too many tries. Try again in 15 minutes.' }),
    );
  });

  it('a quiet request resolves with its failure but shows no toast; a 401 still signs out', async () => {
    handler = reply(503, { code: 'UNAVAILABLE', message: 'The database is not answering.' });
    const result = await client().get('/monitor-bff/monitor-summary', { quiet: true });
    expect(result).toMatchObject({ ok: false, status: 503, code: 'UNAVAILABLE' });
    expect(show).not.toHaveBeenCalled();
    handler = reply(401, { code: 'UNAUTHORIZED', message: 'Sign in again.' });
    await client().get('/monitor-bff/monitor-summary', { quiet: true });
    expect(navigate).toHaveBeenCalledWith('/app/login');
  });

  it("on a network error shows 'unkow error' and resolves with status 0", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await createApiClient({ baseURL: `http://127.0.0.1:${port}`, navigate }).get(
      '/monitor-bff/plans',
    );
    expect(result).toMatchObject({ ok: false, status: 0, code: 'NETWORK_ERROR', message: 'unkow error' });
    expect(show).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ title: 'Error', message: 'unkow error' }),
    );
    expect(navigate).not.toHaveBeenCalled();
  });

  it('treats a timeout as a network error', async () => {
    handler = () => {
      // never answers
    };
    const result = await createApiClient({ baseURL, navigate, timeout: 50 }).get('/slow');
    expect(result).toMatchObject({ ok: false, status: 0, message: 'unkow error' });
    expect(show).toHaveBeenCalledOnce();
  });

  it('waits 50000 ms by default', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
  });

  it('stays silent when the caller cancels', async () => {
    handler = () => {};
    const controller = new AbortController();
    const pending = client().get('/slow', { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(show).not.toHaveBeenCalled();
  });
});
