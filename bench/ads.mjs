// Ads services benchmark (issue 9): what watching many Google Ads and Meta ad accounts costs Vigil and the
// providers' APIs, and how long an account's change takes to become an alert without provider webhooks.
//
// One `ROLE=all` process with `SANDBOX=on` on a fresh PostgreSQL database: it runs the API, the check engine and
// the Google Ads and Meta stand-ins (JSON control APIs under `/sandbox/api/google` and `/sandbox/api/meta`), so
// its CPU includes theirs. Everything is set up through HTTP as a person would: users register, onboard and buy
// Business (`plan-order/create`, the sandbox's Checkout paid with 4242…, the order read until the webhook
// activated it); each user has a Google account (made in the sandbox) reaching 25 Google Ads customers of A ads
// each, and binds it through Google's consent page; the Meta accounts all belong to the stand-in's demo merchant
// (it has no API to add people), whom each user binds through Facebook's login dialog; monitors are created with
// `POST /monitor-bff/monitor`: one per account, watching its A ads (Google) or all its ad sets (Meta), every
// condition on (spend anomaly at 50 %, spend cap at 90 %, no linked shop monitor), one interval, confirmations 2,
// no alert channel but the latency monitors' email. Accounts go to users round robin, 25 of each provider a user:
// `ouathuri` allows 30 per user per hour, Business 500 monitors.
//
// The Google stand-in's developer token starts with Basic access's 15,000 operations a day, which 1,000
// accounts spend in well under an hour; the benchmark gives it BENCH_ADS_GOOGLE_QUOTA first (Standard access).
//
// After a warm-up, a window of whole intervals (each account's monitors share a grid offset within the interval
// by a hash of the account's group): checks/s, start drift (checked_at − slot_at), missed slots, results that
// could not judge every condition, the stand-ins' counters per account per interval (Google: requests and
// operations by customer; Meta: Graph calls by account and HTTP requests), CPU of the process and of PostgreSQL
// per account check, RSS, Vigil's warnings. During the window, one watched ad of each Google latency account is
// disapproved and each Meta latency account disabled (account_status 2), spread over the window; latency = the
// alert email at the benchmark's SMTP server − the change. Loopback only; the database, the child process and
// the SMTP server go at the end.
import pg from 'pg';
import { httpClient } from './http.mjs';
import {
  freshDatabase,
  measureChecks,
  NO_ALERTS,
  num,
  pool,
  sampler,
  sleep,
  spreadOf,
  startServer,
  startSmtp,
  stopChild,
  waitForTable,
  watchLog,
  sandboxedServerEnv,
} from './lib.mjs';

// The Shopify and phone benchmarks use these ports too, never at once.
const SMTP_PORT = 3394;
const PORT = 3395;
const SANDBOX_SMTP_PORT = 3396;
const SANDBOX_STRIPE_PORT = 3397;
const { api, registerBusinessUser, bind } = httpClient(PORT);
/** Accounts of each provider per user: `ouathuri` allows 30 per user per hour. */
const ACCOUNTS_PER_USER = 25;
/** The Meta stand-in's demo merchant, who holds every benchmark account. */
const META_PERSON = '10000000000001';

export const GOOGLE_ADS_CONDITIONS = {
  account_not_enabled: { enabled: true },
  ad_disapproved: { enabled: true },
  campaign_not_eligible: { enabled: true },
  zero_impressions: { enabled: true },
  spend_anomaly: { enabled: true, changePercent: 50 },
  connection_lost: { enabled: true },
  shop_cannot_sell: { enabled: true },
};

export const META_ADS_CONDITIONS = {
  account_status: { enabled: true },
  adset_disapproved: { enabled: true },
  spend_cap: { enabled: true, percent: 90 },
  spend_anomaly: { enabled: true, changePercent: 50 },
  connection_lost: { enabled: true },
  shop_cannot_sell: { enabled: true },
};

/** The condition each provider's change fails, and its monitors' names. */
const PROVIDERS = {
  google: { service: 'google_ads', condition: 'ad_disapproved', name: (i) => `google-${i}` },
  meta: { service: 'facebook_ads', condition: 'account_status', name: (i) => `meta-${i}` },
};

async function createMonitor(token, { name, service, target, conditions, intervalS, email }) {
  return api('POST', '/monitor-bff/monitor', {
    token,
    json: {
      name,
      service,
      target: { ...target, linkedMonitorId: null },
      conditions,
      intervalSeconds: intervalS,
      repeatIntervalMinutes: 0,
      confirmations: 2,
      languageCode: 'en-US',
      ...NO_ALERTS,
      ...(email ? { emailSettings: { checked: true, name: 'Bench', isAgree: true, email } } : {}),
    },
  });
}

/** Account `i` of a provider belongs to user `i % users`; the indexes of user `u`'s accounts. */
const accountsOf = (u, count, users) => {
  const list = [];
  for (let i = u; i < count; i += users) list.push(i);
  return list;
};

/**
 * Makes the accounts in the stand-ins, the users, their bindings and one monitor per account. Resolves with
 * the accounts (`google[i]`: customer id and watched ads; `meta[i]`: account id and ad sets) and the latency
 * changes to make.
 */
async function setup({ client, google, meta, ads, adSets, alerting, intervalS, googleQuota }) {
  const users = Math.max(1, Math.ceil(Math.max(google, meta) / ACCOUNTS_PER_USER));
  await api('POST', '/sandbox/api/google/quota', { json: { remainingOperations: googleQuota } });

  let t = Date.now();
  const tokens = new Array(users);
  await pool(
    Array.from({ length: users }, (_, u) => u),
    4,
    async (u) => {
      tokens[u] = await registerBusinessUser(`owner-${u}@bench.local`);
    },
  );
  // The latency monitors' addresses, verified as if their owners had entered the codes.
  for (const provider of ['google', 'meta']) {
    for (let i = 0; i < Math.min(alerting, provider === 'google' ? google : meta); i += 1) {
      await client.query(
        `insert into verified_contacts (user_id, channel, address, verified_at)
         select id, 'email', $2, now() from users where email = $1`,
        [`owner-${i % users}@bench.local`, `alert-${provider}-${i}@bench.local`],
      );
    }
  }
  console.error(`ads: ${users} users registered, onboarded, on Business in ${Date.now() - t} ms`);

  t = Date.now();
  const googleAccounts = new Array(google);
  await pool(
    Array.from({ length: users }, (_, u) => u),
    4,
    async (u) => {
      const mine = accountsOf(u, google, users);
      if (mine.length === 0) return;
      const email = `google-${u}@bench.local`;
      await api('POST', '/sandbox/api/google/users', { json: { email, name: `Bench owner ${u}` } });
      const { list } = await api('POST', '/sandbox/api/google/customers', {
        json: { count: mine.length, userEmail: email, adsPerCustomer: ads, campaignsPerCustomer: 5 },
      });
      for (const [k, customer] of list.entries()) {
        const detail = await api('GET', `/sandbox/api/google/customers/${customer.id}`);
        googleAccounts[mine[k]] = { customerId: customer.id, email, ads: detail.ads };
      }
    },
  );
  const metaAccounts = new Array(meta);
  if (meta > 0) {
    const { ids } = await api('POST', '/sandbox/api/meta/accounts', {
      json: { count: meta, userId: META_PERSON, adSetsPerAccount: adSets, adsPerAccount: ads },
    });
    await pool(ids, 8, async (id, i) => {
      const detail = await api('GET', `/sandbox/api/meta/accounts/${id}`);
      metaAccounts[i] = { accountId: detail.accountId, adSets: detail.adSets.map((adSet) => adSet.id) };
    });
  }
  console.error(
    `ads: ${google} Google Ads customers × ${ads} ads, ${meta} Meta accounts × ${ads} ads in ${adSets} ad sets, in ${Date.now() - t} ms`,
  );

  t = Date.now();
  let done = 0;
  const progress = () => {
    done += 1;
    if (done % 200 === 0) console.error(`ads: ${done} monitors created (${Date.now() - t} ms)`);
  };
  await pool(
    Array.from({ length: users }, (_, u) => u),
    8,
    async (u) => {
      const token = tokens[u];
      const googleOf = accountsOf(u, google, users);
      if (googleOf.length) {
        const connectionId = await bind(token, 'service=google_ads', {
          user: `google-${u}@bench.local`,
          grant_ads: 'yes',
          decision: 'allow',
        });
        // One after another: the first reads the customers the connection reaches, the rest use that read.
        for (const i of googleOf) {
          const account = googleAccounts[i];
          await createMonitor(token, {
            name: PROVIDERS.google.name(i),
            service: 'google_ads',
            target: {
              connectionId,
              customer: `customers/${account.customerId}`,
              campaignIds: [],
              adIds: account.ads.map((ad) => ad.resourceName),
            },
            conditions: GOOGLE_ADS_CONDITIONS,
            intervalS,
            email: i < alerting ? `alert-google-${i}@bench.local` : undefined,
          });
          progress();
        }
      }
      const metaOf = accountsOf(u, meta, users);
      if (metaOf.length) {
        const connectionId = await bind(token, 'service=facebook_ads', {
          user: META_PERSON,
          decision: 'continue',
        });
        for (const i of metaOf) {
          const account = metaAccounts[i];
          await createMonitor(token, {
            name: PROVIDERS.meta.name(i),
            service: 'facebook_ads',
            target: { connectionId, accountId: account.accountId, adSetIds: account.adSets },
            conditions: META_ADS_CONDITIONS,
            intervalS,
            email: i < alerting ? `alert-meta-${i}@bench.local` : undefined,
          });
          progress();
        }
      }
    },
  );
  console.error(`ads: ${users} × 2 bindings, ${google + meta} monitors created in ${Date.now() - t} ms`);

  const latency = [];
  for (let i = 0; i < Math.min(alerting, google); i += 1)
    latency.push({ provider: 'google', i, address: `alert-google-${i}@bench.local`, ...googleAccounts[i] });
  for (let i = 0; i < Math.min(alerting, meta); i += 1)
    latency.push({ provider: 'meta', i, address: `alert-meta-${i}@bench.local`, ...metaAccounts[i] });
  return { users, googleAccounts, metaAccounts, latency };
}

/** The stand-ins' counters: Google's usage by customer, Meta's calls by account and HTTP requests. */
async function providerCounts() {
  const [google, meta] = await Promise.all([
    api('GET', '/sandbox/api/google/usage'),
    api('GET', '/sandbox/api/meta/calls'),
  ]);
  return { google, meta };
}

/** Per account and interval between two snapshots: mean and max of each counter. */
function perInterval(before, after, { googleIds, metaIds, intervals }) {
  const stat = (values) => ({
    mean: values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1),
    max: values.length ? Math.max(...values) : NaN,
  });
  const googleOf = (key) =>
    googleIds.map(
      (id) =>
        ((after.google.byCustomer[id]?.[key] ?? 0) - (before.google.byCustomer[id]?.[key] ?? 0)) / intervals,
    );
  const metaCalls = metaIds.map(
    (id) =>
      ((after.meta.byAccount[`act_${id}`] ?? 0) - (before.meta.byAccount[`act_${id}`] ?? 0)) / intervals,
  );
  const total = (a, b, key) => (a[key] ?? 0) - (b[key] ?? 0);
  const endpoints = {};
  for (const [endpoint, counter] of Object.entries(after.google.byEndpoint))
    endpoints[endpoint] = counter.requests - (before.google.byEndpoint[endpoint]?.requests ?? 0);
  const paths = {};
  for (const [path, n] of Object.entries(after.meta.byPath))
    if (n - (before.meta.byPath[path] ?? 0) > 0) paths[path] = n - (before.meta.byPath[path] ?? 0);
  return {
    google: {
      accounts: googleIds.length,
      requests: stat(googleOf('requests')),
      operations: stat(googleOf('operations')),
      errors: googleOf('errors').reduce((a, b) => a + b, 0) * intervals,
      totalRequests: total(after.google.total, before.google.total, 'requests'),
      endpoints,
    },
    meta: {
      accounts: metaIds.length,
      calls: stat(metaCalls),
      httpRequestsPerAccount:
        total(after.meta, before.meta, 'httpRequests') / Math.max(metaIds.length, 1) / intervals,
      totalCalls: total(after.meta, before.meta, 'calls'),
      errors: total(after.meta, before.meta, 'errors'),
      throttled: total(after.meta, before.meta, 'throttled'),
      paths,
    },
  };
}

/**
 * Accounts whose monitors were checked more often between the two snapshots than the stand-in was asked about
 * them (a check that reused a read made before the span, or made none): each with its monitor's checks.
 */
async function checksWithoutReads(query, { before, after, fromMs, toMs, accounts }) {
  const { rows } = await query(
    `select m.name, count(r.*)::int as checks,
       json_agg(json_build_object('slot', r.slot_at, 'checked', r.checked_at, 'ok', r.ok) order by r.checked_at)
         filter (where r.monitor_id is not null) as results
     from monitors m left join check_results r on r.monitor_id = m.id
       and r.checked_at >= to_timestamp($1::float8 / 1000) and r.checked_at < to_timestamp($2::float8 / 1000)
     group by m.name`,
    [fromMs, toMs],
  );
  const byName = new Map(rows.map((row) => [row.name, row]));
  const short = [];
  accounts.googleAccounts.forEach((account, i) => {
    const id = account.customerId;
    const reads =
      (after.google.byCustomer[id]?.requests ?? 0) - (before.google.byCustomer[id]?.requests ?? 0);
    const row = byName.get(PROVIDERS.google.name(i));
    // Every check reads the account's state (one search); its hourly figures are read at most every 15 minutes,
    // so a check's own read is at least one search.
    if (row && reads < row.checks) short.push({ monitor: row.name, requests: reads, ...row });
  });
  accounts.metaAccounts.forEach((account, i) => {
    const key = `act_${account.accountId}`;
    const calls = (after.meta.byAccount[key] ?? 0) - (before.meta.byAccount[key] ?? 0);
    const row = byName.get(PROVIDERS.meta.name(i));
    // A check is one batch of four Graph calls.
    if (row && calls < 4 * row.checks) short.push({ monitor: row.name, graphCalls: calls, ...row });
  });
  return short;
}

/** Makes each latency change at its time, spread over the window; resolves with when each was made. */
async function makeChanges(latency, { fromMs, windowMs }) {
  const count = { google: 0, meta: 0 };
  for (const account of latency) count[account.provider] += 1;
  const changes = [];
  const seen = { google: 0, meta: 0 };
  await Promise.all(
    latency.map(async (account) => {
      const k = seen[account.provider]++;
      // Google's changes a quarter of a step into theirs, Meta's three quarters: never at the same moment.
      const atMs =
        fromMs + ((k + (account.provider === 'google' ? 0.25 : 0.75)) * windowMs) / count[account.provider];
      await sleep(atMs - Date.now());
      const changedMs = Date.now();
      if (account.provider === 'google') {
        const ad = account.ads[0];
        await api('POST', `/sandbox/api/google/customers/${account.customerId}/ads/${ad.id}/approval`, {
          json: { approvalStatus: 'DISAPPROVED', topic: 'DESTINATION_NOT_WORKING' },
        });
      } else {
        await api('POST', `/sandbox/api/meta/accounts/${account.accountId}/status`, {
          json: { accountStatus: 2, disableReason: 1 },
        });
      }
      changes.push({ ...account, changedMs, answeredMs: Date.now() });
    }),
  );
  return changes;
}

/** From each change to: the first check after it, the incident, sent_at, the email; per provider. */
async function measureLatency(query, changes, received, intervalMs) {
  const { rows } = await query(
    `select c.name,
       (select extract(epoch from min(r.checked_at)) * 1000 from check_results r
         where r.monitor_id = m.id and r.checked_at >= to_timestamp(c.changed_ms / 1000))::float8 as checked_ms,
       (select count(*) from incidents i2 where i2.monitor_id = m.id and i2.condition_key = c.condition)::int
         as incidents,
       (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms,
       (extract(epoch from d.sent_at) * 1000)::float8 as sent_ms
     from json_to_recordset($1::json) as c(name text, condition text, changed_ms float8)
       join monitors m on m.name = c.name
       left join incidents i on i.monitor_id = m.id and i.condition_key = c.condition
         and i.opened_at >= to_timestamp(c.changed_ms / 1000)
       left join alert_deliveries d on d.incident_id = i.id and d.event = 'opened' and d.channel = 'email'`,
    [
      JSON.stringify(
        changes.map((c) => ({
          name: PROVIDERS[c.provider].name(c.i),
          condition: PROVIDERS[c.provider].condition,
          changed_ms: c.changedMs,
        })),
      ),
    ],
  );
  const byName = new Map(rows.map((row) => [row.name, row]));
  const out = {};
  for (const provider of Object.keys(PROVIDERS)) {
    const mine = changes.filter((c) => c.provider === provider);
    if (mine.length === 0) continue;
    const emails = [];
    const since = { checked: [], opened: [], sent: [] };
    let missing = 0;
    let duplicates = 0;
    let before = 0;
    let incidents = 0;
    for (const change of mine) {
      const arrivals = received.get(change.address) ?? [];
      const after = arrivals.filter((at) => at >= change.changedMs);
      before += arrivals.length - after.length;
      if (after.length === 0) missing += 1;
      duplicates += Math.max(0, after.length - 1);
      if (after.length) emails.push(after[0] - change.changedMs);
      const row = byName.get(PROVIDERS[provider].name(change.i));
      if (!row) continue;
      incidents += row.incidents;
      for (const key of Object.keys(since))
        if (row[`${key}_ms`] !== null) since[key].push(row[`${key}_ms`] - change.changedMs);
    }
    const email = spreadOf(emails);
    out[provider] = {
      changes: mine.length,
      changedOverS:
        (Math.max(...mine.map((c) => c.changedMs)) - Math.min(...mine.map((c) => c.changedMs))) / 1000,
      incidents,
      emails: emails.length,
      missing,
      duplicates,
      before,
      email,
      ofInterval: { p50: email.p50 / intervalMs, p99: email.p99 / intervalMs, max: email.max / intervalMs },
      checked: spreadOf(since.checked),
      opened: spreadOf(since.opened),
      sent: spreadOf(since.sent),
    };
  }
  const addresses = new Set(changes.map((c) => c.address));
  const stray = [...received.keys()].filter((address) => !addresses.has(address)).length;
  return { providers: out, stray };
}

/** The run's settings from the environment (see bench/README.md). */
export function adsRun() {
  const intervalS = num('BENCH_ADS_INTERVAL_S', 300);
  return {
    google: num('BENCH_ADS_GOOGLE', 1000),
    meta: num('BENCH_ADS_META', 1000),
    ads: num('BENCH_ADS_ADS', 50),
    adSets: num('BENCH_ADS_META_ADSETS', 5),
    alerting: num('BENCH_ADS_ALERTS', 50),
    intervalS,
    intervals: Math.max(1, Math.round(num('BENCH_ADS_INTERVALS', 1))),
    warmS: num('BENCH_ADS_WARM_S', intervalS),
    idleS: num('BENCH_ADS_IDLE_S', 30),
    googleQuota: num('BENCH_ADS_GOOGLE_QUOTA', 1_000_000_000),
  };
}

export async function benchAds(run = adsRun()) {
  const intervalMs = run.intervalS * 1000;
  const label = `${run.google} Google Ads + ${run.meta} Meta accounts × ${run.ads} ads, ${run.intervalS} s`;
  console.error(
    `ads: ${label}; warm-up ≥ ${run.warmS} s, window ${run.intervals} interval(s), ${run.alerting} latency accounts of each`,
  );
  const smtp = await startSmtp(SMTP_PORT);
  const db = await freshDatabase('ads');
  const client = new pg.Client({ connectionString: db.url });
  const query = (text, params) => client.query(text, params);
  let server;
  let pgPoll;
  try {
    await client.connect();
    server = await startServer(
      sandboxedServerEnv({
        databaseUrl: db.url,
        port: PORT,
        smtpPort: SMTP_PORT,
        sandboxSmtpPort: SANDBOX_SMTP_PORT,
        sandboxStripePort: SANDBOX_STRIPE_PORT,
      }),
      { port: PORT, name: 'vigil', nodeArgs: process.env.BENCH_ADS_NODE_ARGS?.split(' ').filter(Boolean) },
    );
    const log = watchLog(server);
    await waitForTable(client, 'pgboss.job');
    let pgPids = [];
    const readPgPids = async () => {
      const { rows } = await query(`select pid from pg_stat_activity where datname = $1 or datname is null`, [
        db.name,
      ]);
      pgPids = rows.map((row) => row.pid);
    };
    await readPgPids();
    pgPoll = setInterval(() => void readPgPids().catch(() => {}), 1000);
    const groups = () => ({ server: [server.pid], postgres: pgPids, bench: [process.pid] });
    // What the process and PostgreSQL spend with nothing to check (the job queue's polling, timers), so the
    // cost of a check can be told from it.
    const idleSample = sampler(groups);
    await sleep(run.idleS * 1000);
    const idle = idleSample.stop();

    const setupStarted = Date.now();
    const accounts = await setup({ client, ...run });
    const setupS = (Date.now() - setupStarted) / 1000;
    const { rows: counted } = await query(`select service, count(*)::int as n from monitors group by 1`);
    const monitors = Object.fromEntries(counted.map((row) => [row.service, row.n]));

    // The window starts on the interval grid, at least the warm-up after the setup, and late enough that no
    // check in the counted span reuses a read made at a monitor's creation (kept 20 s).
    const warmMs = Math.max(run.warmS * 1000, intervalMs / 2 + 25_000);
    const fromMs = Math.ceil((Date.now() + warmMs) / intervalMs) * intervalMs;
    const toMs = fromMs + run.intervals * intervalMs;
    console.error(
      `ads: setup ${setupS.toFixed(0)} s; window ${new Date(fromMs).toISOString()} + ${run.intervals} × ${run.intervalS} s`,
    );
    // Counters are read half an interval before the window and before its end: a span of whole intervals
    // holding each account's slot once per interval, away from the window's edges.
    await sleep(fromMs - intervalMs / 2 - Date.now());
    const beforeAt = Date.now();
    const before = await providerCounts();
    await sleep(fromMs - Date.now());
    const sample = sampler(groups);
    const changing = makeChanges(accounts.latency, { fromMs, windowMs: toMs - fromMs });
    changing.catch(() => {}); // awaited below; a failure must not go unhandled before then
    await sleep(toMs - intervalMs / 2 - Date.now());
    const afterAt = Date.now();
    const after = await providerCounts();
    await sleep(toMs - Date.now());
    const usage = sample.stop();
    const changes = await changing;
    // Each change is seen at its account's next slot: wait for the last alerts, at most an interval and 30 s.
    const lastChange = Math.max(0, ...changes.map((c) => c.changedMs));
    while (Date.now() < lastChange + intervalMs + 30_000) {
      if (changes.every((c) => (smtp.received.get(c.address) ?? []).some((at) => at >= c.changedMs))) break;
      await sleep(1000);
    }
    await sleep(5000); // the window's last results are written

    const checks = {
      all: await measureChecks(query, {
        fromMs,
        toMs,
        intervalMs,
        monitors: (monitors.google_ads ?? 0) + (monitors.facebook_ads ?? 0),
      }),
    };
    for (const [provider, { service }] of Object.entries(PROVIDERS))
      if (monitors[service])
        checks[provider] = await measureChecks(query, {
          fromMs,
          toMs,
          intervalMs,
          monitors: monitors[service],
          service,
        });
    const calls = perInterval(before, after, {
      googleIds: accounts.googleAccounts.map((a) => a.customerId),
      metaIds: accounts.metaAccounts.map((a) => a.accountId),
      intervals: run.intervals,
    });
    const unread = await checksWithoutReads(query, {
      before,
      after,
      fromMs: beforeAt,
      toMs: afterAt,
      accounts,
    });
    const latency = changes.length ? await measureLatency(query, changes, smtp.received, intervalMs) : null;
    const { rows: incidents } = await query(
      `select m.service, i.condition_key, count(*)::int as n, min(i.summary) as example,
         count(*) filter (where i.opened_at < to_timestamp($1::float8 / 1000))::int as before_window,
         count(*) filter (where i.state = 'resolved')::int as resolved
       from incidents i join monitors m on m.id = i.monitor_id group by 1, 2 order by 1, 3 desc`,
      [fromMs],
    );
    const { rows: unjudged } = await query(
      `select m.service, r.error, count(*)::int as n from check_results r join monitors m on m.id = r.monitor_id
       where r.error like 'Not checked:%' and r.checked_at >= to_timestamp($1::float8 / 1000)
         and r.checked_at < to_timestamp($2::float8 / 1000)
       group by 1, 2 order by 3 desc limit 10`,
      [fromMs, toMs],
    );
    const windowS = (toMs - fromMs) / 1000;
    const cpuMsPerCheck = (pct) => ((pct / 100) * windowS * 1000) / Math.max(checks.all.results, 1);
    const cpuOf = (group) => ({
      total: cpuMsPerCheck(usage[group]?.cpuPct ?? NaN),
      overIdle: cpuMsPerCheck((usage[group]?.cpuPct ?? NaN) - (idle[group]?.cpuPct ?? NaN)),
      idlePct: idle[group]?.cpuPct ?? NaN,
    });
    return {
      label,
      ...run,
      users: accounts.users,
      monitors,
      setupS,
      warmS: (fromMs - setupStarted) / 1000 - setupS,
      windowS,
      checks,
      calls,
      unread,
      cpuMsPerCheck: { server: cpuOf('server'), postgres: cpuOf('postgres') },
      latency,
      incidents,
      unjudged,
      warnings: log.between(fromMs - intervalMs / 2, toMs),
      warningsBefore: log.between(setupStarted, fromMs - intervalMs / 2),
      warningExamples: log.examples(setupStarted, toMs),
      usage,
    };
  } finally {
    clearInterval(pgPoll);
    if (server) await stopChild(server);
    await client.end().catch(() => {});
    await db.drop();
    smtp.server.close();
  }
}

const f0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
/** 1, 1.5, 20.25: per-interval counts without needless decimals. */
const fx = (v) => (Number.isFinite(v) ? String(Number(v.toFixed(2))) : '–');
const pct = (v) => (Number.isFinite(v) ? `${Math.round(v * 100)} %` : '–');

export function printAds(r) {
  const u = r.usage;
  const c = r.cpuMsPerCheck;
  const warnings = (counts) =>
    Object.entries(counts)
      .map(([msg, n]) => `${n}× ${msg}`)
      .join('; ') || 'none';
  console.log('\n## Google Ads and Meta ads services (one ROLE=all process with the sandbox, PostgreSQL)\n');
  console.log(
    `${r.label}; ${r.users} users; setup ${f0(r.setupS)} s, warm-up ${f0(r.warmS)} s, window ${r.intervals} × ${r.intervalS} s. ` +
      `Server CPU ${f1(u.server?.cpuPct)} % / peak RSS ${f0(u.server?.rssMiB)} MiB, PostgreSQL CPU ${f1(u.postgres?.cpuPct)} %, machine ${f0(u.machine.cpuPct)} %; ` +
      `CPU per account check: server ${f2(c.server.total)} ms + PostgreSQL ${f2(c.postgres.total)} ms, ` +
      `over the idle process's (${f1(c.server.idlePct)} % and ${f1(c.postgres.idlePct)} % of a core before the setup) ` +
      `${f2(c.server.overIdle)} ms + ${f2(c.postgres.overIdle)} ms. ` +
      `Vigil warnings in the window: ${warnings(r.warnings)}; before it: ${warnings(r.warningsBefore)}.\n`,
  );
  console.log(
    '| monitors | checks/s | drift p50 / p99 / max | missed slots | results "Not checked" / failed | provider calls per account per interval, mean / max | provider errors / throttled |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const row = (title, c, calls, errors) =>
    console.log(
      `| ${title} | ${f2(c.checksPerS)} | ${f0(c.driftP50)} / ${f0(c.driftP99)} / ${f0(c.driftMax)} ms | ${c.missed} of ${c.expected}${c.duplicates ? ` (${c.duplicates} checked twice)` : ''} | ${c.unjudged} / ${c.failedResults} of ${c.results} | ${calls} | ${errors} |`,
    );
  const g = r.calls.google;
  const m = r.calls.meta;
  if (r.checks.google)
    row(
      `${r.monitors.google_ads} Google Ads`,
      r.checks.google,
      `requests ${f2(g.requests.mean)} / ${fx(g.requests.max)}, operations ${f2(g.operations.mean)} / ${fx(g.operations.max)}`,
      `${g.errors} / –`,
    );
  if (r.checks.meta)
    row(
      `${r.monitors.facebook_ads} Meta`,
      r.checks.meta,
      `Graph calls ${f2(m.calls.mean)} / ${fx(m.calls.max)}, HTTP requests ${f2(m.httpRequestsPerAccount)} (mean)`,
      `${m.errors} / ${m.throttled}`,
    );
  row('both', r.checks.all, '', '');
  console.log(
    `\nGoogle requests by endpoint over the span: ${JSON.stringify(g.endpoints)}; Meta Graph calls by path: ${JSON.stringify(m.paths)}.`,
  );
  if (r.unread.length)
    console.log(
      `\nChecked without a read of their own between the snapshots (${r.unread.length}): ${r.unread
        .slice(0, 5)
        .map((x) => JSON.stringify(x))
        .join('; ')}${r.unread.length > 5 ? '; …' : ''}`,
    );
  if (r.latency) {
    console.log('\n## Change → alert (the sandbox change → the alert email at the SMTP server)\n');
    console.log(
      '| provider, change | changes (over) | incidents | emails (missing / duplicates / before the change) | p50 | p99 | max | p50 / p99 / max of the interval | → first check; → incident opened; → sent_at (p50 / p99) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    const what = { google: 'Google, one watched ad disapproved', meta: 'Meta, account disabled (status 2)' };
    for (const [provider, l] of Object.entries(r.latency.providers)) {
      const pair = (s) => `${f0(s.p50)} / ${f0(s.p99)} ms`;
      console.log(
        `| ${what[provider]} | ${l.changes} (${f0(l.changedOverS)} s) | ${l.incidents} | ${l.emails} (${l.missing} / ${l.duplicates} / ${l.before}) | ${f0(l.email.p50)} ms | ${f0(l.email.p99)} ms | ${f0(l.email.max)} ms | ${pct(l.ofInterval.p50)} / ${pct(l.ofInterval.p99)} / ${pct(l.ofInterval.max)} | ${pair(l.checked)}; ${pair(l.opened)}; ${pair(l.sent)} |`,
      );
    }
    if (r.latency.stray) console.log(`\nEmails to addresses of no change: ${r.latency.stray}.`);
  }
  if (r.incidents.length)
    console.log(
      `\nIncidents: ${r.incidents
        .map(
          (i) =>
            `${i.service} ${i.condition_key} ${i.n} (${i.before_window} opened before the window, ${i.resolved} resolved; e.g. "${i.example}")`,
        )
        .join(', ')}`,
    );
  if (r.unjudged.length)
    console.log(
      `\n"Not checked" in the window: ${r.unjudged.map((x) => `${x.service} ${x.n}× "${x.error}"`).join('; ')}`,
    );
  for (const [msg, entry] of Object.entries(r.warningExamples))
    console.log(`\nFirst "${msg}": ${JSON.stringify(entry)}`);
}

/** `node bench/ads.mjs`; the settings come from the environment (see bench/README.md). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const row = await benchAds();
  console.error(JSON.stringify(row));
  printAds(row);
  process.exit(0);
}
