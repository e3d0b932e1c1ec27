import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../test/sandbox-server.ts';
import { createMetaApi } from './meta-ads.api.ts';
import { createMetaClient, type MetaError } from './meta-ads.client.ts';

const MERCHANT = '10000000000001';
const AGENCY = '10000000000002';
const HOODIE = '1010101010';
const CAP = '2020202020';

/** The adapter against the sandbox's Graph, over HTTP: the wire format both follow is Meta's. */
describe('Meta adapter against the sandbox Graph API', () => {
  let server: SandboxServer;
  beforeAll(async () => {
    server = await startSandboxServer('+15005550006');
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.sandbox.meta.reset());

  const meta = () => server.sandbox.meta;
  const fresh = () => {
    const client = createMetaClient(server.meta);
    return { client, api: createMetaApi(client) };
  };
  const tokenOf = (userId: string) => meta().issueToken(userId).token;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: MetaError) => error,
    );

  it('pages the ad accounts by cursor to the end, 10 at a time', async () => {
    const { api } = fresh();
    const token = tokenOf(MERCHANT);
    const ids: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await api.adAccounts(token, { after, limit: 10 });
      ids.push(...page.data.map((account) => account.accountId));
      if (!page.after) break;
      after = page.after;
    }
    expect(ids).toHaveLength(32);
    expect(ids.slice(0, 2)).toEqual([HOODIE, CAP]);
  });

  it('reads an account for the checks in one batch request: the account, ad sets, rejected ads, insights', async () => {
    const { api, client } = fresh();
    const token = tokenOf(MERCHANT);
    const account = meta().account(HOODIE)!;
    meta().setAdStatus(account.ads[0]!.id, 'DISAPPROVED', 'Misleading claims');
    meta().resetCalls();
    const read = await api.readAccount(token, HOODIE, ['2025-07-15', '2025-07-08']);
    expect(meta().calls()).toMatchObject({ httpRequests: 1, calls: 4 });
    expect(client.stats()).toEqual({ calls: 4, httpRequests: 1 });
    expect(read.account).toMatchObject({
      name: 'Hoodie Co Ads',
      amountSpent: '1234.56',
      spendCap: '5000.00',
    });
    expect([...read.adSets.values()].map((adSet) => adSet.name)).toHaveLength(4);
    expect(read.problemAds).toEqual([
      expect.objectContaining({
        adId: account.ads[0]!.id,
        adSetId: account.ads[0]!.adSetId,
        effectiveStatus: 'DISAPPROVED',
        issues: [expect.stringContaining('Misleading claims')],
      }),
    ]);
    expect(Array.isArray(read.figures)).toBe(true);
    expect(client.usage.standing(HOODIE).percent).toBeGreaterThan(0);
  });

  it('answers each failing call of a batch on its own, and an unreachable account as refused', async () => {
    const { client } = fresh();
    const answers = await client.batch(tokenOf(AGENCY), [
      { path: `act_${CAP}`, params: { fields: 'name' } },
      { path: `act_${HOODIE}`, params: { fields: 'name' } },
    ]);
    expect(answers[0]).toMatchObject({ ok: true, body: { name: 'Cap Co Ads' } });
    expect(answers[1]).toMatchObject({
      ok: false,
      error: { kind: 'refused', details: { code: 100, subcode: 33 } },
    });
  });

  it('maps a revoked, an expired and a malformed token to auth, and a wrong app secret to refused', async () => {
    const { client } = fresh();
    const revoked = tokenOf(MERCHANT);
    meta().revokeTokens(MERCHANT, 'password');
    expect(await failure(client.get('me', revoked))).toMatchObject({
      kind: 'auth',
      details: { code: 190, subcode: 460 },
    });
    const expired = tokenOf(AGENCY);
    meta().expireTokens(AGENCY, 0);
    expect(await failure(client.get('me', expired))).toMatchObject({
      kind: 'auth',
      details: { code: 190, subcode: 463 },
    });
    expect(await failure(client.get('me', 'EAAnothing'))).toMatchObject({
      kind: 'auth',
      details: { code: 190 },
    });
    const wrongSecret = createMetaClient({ ...server.meta, appSecret: 'not-the-secret' });
    meta().reset();
    expect(await failure(wrongSecret.get('me', tokenOf(MERCHANT)))).toMatchObject({
      kind: 'refused',
      details: { code: 100 },
    });
  });

  it('obeys a rate limit: the account waits until its regain time with no call sent, the app on error 4', async () => {
    const { client, api } = fresh();
    const token = tokenOf(MERCHANT);
    meta().throttle({ kind: 'account', id: HOODIE }, 600);
    meta().resetCalls();
    const limited = await failure(api.readAccount(token, HOODIE, null));
    expect(limited).toMatchObject({ kind: 'rate', details: { code: 80004 } });
    const minutes = (limited!.details.retryAt! - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10.1);
    expect(await failure(api.readAccount(token, HOODIE, null))).toMatchObject({ kind: 'rate' });
    expect(meta().calls().httpRequests).toBe(1);
    // Another account is not held back by this one's limit.
    await api.readAccount(token, CAP, null);
    expect(meta().calls().httpRequests).toBe(2);

    meta().throttle({ kind: 'app', id: '' }, 120);
    expect(await failure(client.get('me', token))).toMatchObject({ kind: 'rate', details: { code: 4 } });
    expect(await failure(api.readAccount(token, CAP, null))).toMatchObject({ kind: 'rate' });
    expect(meta().calls().httpRequests).toBe(3);
  });

  it('maps a person’s own limit (17) to rate', async () => {
    const { client } = fresh();
    meta().throttle({ kind: 'user', id: MERCHANT }, 60);
    expect(await failure(client.get('me', tokenOf(MERCHANT)))).toMatchObject({
      kind: 'rate',
      details: { code: 17 },
    });
  });
});
