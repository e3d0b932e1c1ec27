import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContactRepository } from './modules/contacts/contact.repository.ts';
import { createMonitor, websiteMonitor, type TestUser } from './modules/monitors/monitor-test-helpers.ts';
import { createUserRepository } from './modules/users/user.repository.ts';
import {
  bodyArbitrary,
  queryArbitrary,
  queryString,
  rawBodies,
  sampleOf,
  type FuzzIds,
  type QueryValue,
} from './test/fuzz/bad-inputs.ts';
import { operationsOf, type Operation } from './test/fuzz/openapi-operations.ts';
import { databases } from './test/databases.ts';
import { call, PASSWORD, startTestApp, uniqueAddress, uniqueEmail, type TestApp } from './test/test-app.ts';

/** Fixed, so a failure replays; set FUZZ_SEED to explore further, FUZZ_RUNS to fuzz longer. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

interface FuzzRequest {
  query: Record<string, QueryValue>;
  /** A JSON value sent as application/json; undefined sends no body. */
  body?: unknown;
  raw?: { contentType: string; payload: string; tooLarge?: true };
}

interface Violation {
  request: string;
  status: number;
  why: string;
}

/** The OpenAPI document is read from a throwaway app, so the operations are known when tests are declared. */
async function documentedOperations(): Promise<Operation[]> {
  const t = await startTestApp(databases[0]!);
  try {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    return operationsOf(response.json());
  } finally {
    await t.close();
  }
}

const operations = await documentedOperations();

/** Bodies that pass every refinement, where a schema-made sample would stop at the first one. */
function baseBody(operation: Operation, user: TestUser, ids: FuzzIds): unknown {
  if (operation.path === '/monitor-bff/monitor' && operation.method === 'POST')
    return websiteMonitor(user.email);
  if (operation.path === '/monitor-bff/monitor' && operation.method === 'PUT')
    return { ...websiteMonitor(user.email), monitorId: ids.own };
  return operation.body ? sampleOf(operation.body, ids) : undefined;
}

const MONITOR_ID_FIELD = /^monitor_?ids?$/i;

/** Whether a monitor id field anywhere in the input names the other user's monitor. */
function carriesForeignId(input: unknown, ids: FuzzIds): boolean {
  if (Array.isArray(input)) return input.some((item) => carriesForeignId(item, ids));
  if (typeof input !== 'object' || input === null) return false;
  return Object.entries(input).some(([key, value]) =>
    MONITOR_ID_FIELD.test(key)
      ? [value].flat().some((id) => typeof id === 'string' && id.trim().toLowerCase() === ids.foreign)
      : carriesForeignId(value, ids),
  );
}

/** Whether a schema declares a monitor id field anywhere. */
function namesMonitorId(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  return Object.entries(schema).some(([key, value]) => MONITOR_ID_FIELD.test(key) || namesMonitorId(value));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Long values shortened, so a report of 5000-character inputs stays readable. */
function shorten(text: string): string {
  return text.replace(/(.)\1{40,}/gsu, (run, char: string) => `${char.repeat(3)}…(${run.length}×)`);
}

function describeRequest(operation: Operation, request: FuzzRequest): string {
  const url = shorten(`${operation.path}${queryString(request.query)}`);
  const body = request.raw
    ? `${request.raw.contentType} ${request.raw.payload}`
    : request.body === undefined
      ? ''
      : JSON.stringify(request.body);
  const shown = shorten(body);
  return `${operation.method} ${url} ${shown}`.trim();
}

let signUps = 0;

/**
 * `signUp` from an address of its own (TEST-NET-2, apart from `uniqueAddress()`, which the fuzzed requests
 * cycle through), so neither a hundred sign-ups nor the fuzzed registrations meet the register limit.
 */
async function signUpFrom(t: TestApp): Promise<TestUser> {
  signUps += 1;
  const address = `198.18.${Math.floor(signUps / 250) % 250}.${signUps % 250}`;
  const email = uniqueEmail('fuzz');
  const { status, body } = await call(t.app, 'POST', '/oauth-bff/v1/user/register', {
    body: { email, password: PASSWORD },
    address,
  });
  if (status !== 200) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
  const row = (await createUserRepository(t.database.db).findByEmail(email))!;
  await createContactRepository(t.database.db).markVerified(
    { userId: row.id, channel: 'email', address: email },
    t.clock.now(),
  );
  return {
    email,
    password: PASSWORD,
    token: body.data.token,
    monitorKey: body.data.monitor_key,
    userId: row.id,
  };
}

describe.each(databases)('every documented operation survives bad input on $name', (testDatabase) => {
  let t: TestApp;
  let owner: TestUser;
  let foreignMonitorId: string;

  beforeAll(async () => {
    t = await startTestApp(testDatabase);
    owner = await signUpFrom(t);
    foreignMonitorId = await createMonitor(t, owner, { name: 'Not yours' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh, onboarded user with one monitor per operation, so a logout or delete spoils no other case. */
  async function fuzzingUser(): Promise<{ user: TestUser; ids: FuzzIds }> {
    const user = await signUpFrom(t);
    const onboarded = await call(t.app, 'POST', '/monitor-bff/onboarding/user-info', {
      token: user.token,
      body: { industry: 'Pets', contactEmail: user.email },
      address: uniqueAddress(),
    });
    if (onboarded.status !== 200) throw new Error(`onboarding failed: ${onboarded.status}`);
    return { user, ids: { own: await createMonitor(t, user), foreign: foreignMonitorId } };
  }

  async function send(operation: Operation, request: FuzzRequest, token?: string) {
    const payload =
      request.raw?.payload ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    const contentType = request.raw?.contentType ?? (payload === undefined ? undefined : 'application/json');
    return t.app.inject({
      method: operation.method,
      url: `${operation.path}${queryString(request.query)}`,
      headers: {
        ...(token ? { authorization: token } : {}),
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(payload === undefined ? {} : { payload }),
      remoteAddress: uniqueAddress(),
    });
  }

  /** What is wrong with the answer, or null: never a 5xx; a 2xx only for input the schema and caller allow. */
  function judge(operation: Operation, request: FuzzRequest, status: number, ids: FuzzIds, token?: string) {
    if (status >= 500) return 'server error';
    if (request.raw?.tooLarge && status !== 413 && status !== 429)
      return 'body over 64 KiB not refused with 413';
    if (status < 200 || status >= 300) return null;
    if (operation.secured && !token) return 'answered without a session';
    const body = request.raw ? parseJson(request.raw.payload) : request.body;
    if (carriesForeignId([request.query, body], ids)) return "read or changed another user's monitor";
    if (request.raw) {
      if (!request.raw.contentType.startsWith('application/json')) return 'accepted a non-JSON content type';
      if (body === undefined) return 'accepted malformed JSON';
      if (operation.forbids({ query: request.query, body })) return 'accepted a body the schema forbids';
      return null;
    }
    if (operation.forbids(request)) return 'accepted input the schema forbids';
    return null;
  }

  for (const operation of operations) {
    for (const session of ['with a session', 'without a session'] as const) {
      it(`${operation.method} ${operation.path} ${session}`, async () => {
        const { user, ids } = await fuzzingUser();
        const token = session === 'with a session' ? user.token : undefined;
        const base = baseBody(operation, user, ids);
        const violations: Violation[] = [];
        const check = async (request: FuzzRequest) => {
          const response = await send(operation, request, token);
          const why = judge(operation, request, response.statusCode, ids, token);
          if (why)
            violations.push({
              request: describeRequest(operation, request),
              status: response.statusCode,
              why: response.statusCode >= 500 ? `${why}: ${response.body.slice(0, 200)}` : why,
            });
        };

        const requests: fc.Arbitrary<FuzzRequest> = fc.record({
          query: queryArbitrary(operation.query, ids),
          body: operation.body ? bodyArbitrary(base, ids) : fc.constant(undefined),
        });
        await fc.assert(fc.asyncProperty(requests, check), { seed: SEED, numRuns: RUNS });
        if (operation.body) for (const raw of rawBodies(base)) await check({ query: {}, raw });

        expect(violations, `seed ${SEED}; replay with FUZZ_SEED=${SEED}`).toEqual([]);
      });
    }
  }

  /** The input with every monitor id field set to the other user's monitor. */
  function withForeignMonitor(input: unknown): unknown {
    if (Array.isArray(input)) return input.map(withForeignMonitor);
    if (typeof input !== 'object' || input === null) return input;
    return Object.fromEntries(
      Object.entries(input).map(([key, value]) => [
        key,
        MONITOR_ID_FIELD.test(key)
          ? Array.isArray(value)
            ? [foreignMonitorId]
            : foreignMonitorId
          : withForeignMonitor(value),
      ]),
    );
  }

  const takesMonitorId = operations.filter((operation) => namesMonitorId([operation.query, operation.body]));

  it.each(takesMonitorId.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s answers 404 for another user's monitor",
    async (_name, operation) => {
      const { user, ids } = await fuzzingUser();
      const query = withForeignMonitor(operation.query ? sampleOf(operation.query, ids) : {}) as Record<
        string,
        QueryValue
      >;
      const body = withForeignMonitor(baseBody(operation, user, ids));
      const response = await send(operation, { query, body }, user.token);
      expect(response.statusCode, describeRequest(operation, { query, body })).toBe(404);
    },
  );

  it("leaves the other user's monitor as it was", async () => {
    const { status, body } = await call(
      t.app,
      'GET',
      `/monitor-bff/monitor-info?monitorId=${foreignMonitorId}`,
      {
        token: owner.token,
        address: uniqueAddress(),
      },
    );
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: 'Not yours' });
  });
});
