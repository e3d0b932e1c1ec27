// Detection-time benchmark (issue 12): how long from a site going down to its alert email, at each plan's shortest
// interval, with the form's default confirmations (2) and the engine's confirmation re-check
// (CONFIRM_RETRY_SECONDS, 30 s after a failure not yet confirmed, instead of a whole interval).
//
// One `ROLE=all` server on PGlite (a temporary data folder), its alerts to the benchmark's own SMTP server. For each
// interval (300 s Free, 60 s Starter/Pro, 30 s Business) M website monitors of one user on the plan that allows
// it (its limits counted as applied, as checks.mjs's seed does), confirmations 2, email to a verified address each,
// all at the target server (bench/target-server.mjs) under /down/. Their slots are placed so that their first slot
// after T is spread evenly over one interval, and every one of them is checked healthy during the warm-up (those
// whose slot before T falls before the server starts are overdue, checked once at the start, then on their grid).
// At T the target answers 503 under /down/; the run lasts until every email arrived or one interval + the tail
// after T. Per monitor: T → first failed check (its `checked_at`), → the re-check that confirms it, → the
// incident's `opened_at`, → the SMTP server's end of DATA; and what it would have been without the re-check
// (the confirming check one whole interval after the first failure, as before issue 12: the first failed check's
// slot + the interval + the same confirming check → email time).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONDITIONS,
  NO_ALERTS,
  num,
  percentile,
  sleep,
  spawnChild,
  startServer,
  startSmtp,
  stopChild,
} from './lib.mjs';

/** Each plan's shortest interval (plan-catalogue.ts minIntervalSeconds); Starter and Pro share 60 s. */
export const GROUPS = [
  { plan: 'Free', label: 'Free', intervalS: 300 },
  { plan: 'Pro', label: 'Starter / Pro', intervalS: 60 },
  { plan: 'Business', label: 'Business', intervalS: 30 },
];
/** `Free,Pro,Business` (the default: all three intervals), or some of them for a quicker run. */
export function plansOf(value) {
  if (!value) return GROUPS;
  const names = value.split(',').map((name) => name.trim().toLowerCase());
  const groups = GROUPS.filter((g) => names.includes(g.plan.toLowerCase()));
  if (groups.length !== names.length)
    throw new Error(`BENCH_DETECTION_PLANS: one of Free, Pro, Business each`);
  return groups;
}
/** The monitor form's default (service-catalogue.ts CONFIRMATIONS.default). */
const CONFIRMATIONS = 2;

/**
 * One user per group on its plan (limits applied), and M monitors each whose first slot after `tMs` is
 * tMs + (i + ½)·interval/M: the seeded slot is one interval before that.
 */
async function seed(query, { groups, monitors, targetBase, tMs }) {
  for (const group of groups) {
    const key = group.plan.toLowerCase();
    const user = await query(
      `insert into users (email, password_hash, monitor_key, plan, plan_expires_at, limits_plan)
       values ($1, null, $2, $3, 4102444800, $3) returning id`,
      [`${key}@bench.local`, `bench-${key}`, group.plan],
    );
    const userId = user.rows[0].id;
    const interval = group.intervalS * 1000;
    for (let i = 0; i < monitors; i += 1) {
      const name = `${key}-${i}`;
      const address = `${name}@bench.local`;
      await query(
        `insert into verified_contacts (user_id, channel, address, verified_at) values ($1, 'email', $2, now())`,
        [userId, address],
      );
      const alerts = {
        ...NO_ALERTS,
        emailSettings: { checked: true, name: 'Bench', isAgree: true, email: address },
      };
      await query(
        `insert into monitors (user_id, name, service, target, conditions, interval_seconds,
           repeat_interval_minutes, confirmations, alert_settings, language_code, next_check_at, created_at, updated_at)
         values ($1, $2, 'website', $3::jsonb, $4::jsonb, $5, 0, $6, $7::jsonb, 'en-US',
           to_timestamp($8::float8 / 1000), now(), now())`,
        [
          userId,
          name,
          JSON.stringify({ url: `${targetBase}/down/${name}` }),
          JSON.stringify(CONDITIONS),
          group.intervalS,
          CONFIRMATIONS,
          JSON.stringify(alerts),
          tMs - interval + ((i + 0.5) * interval) / monitors,
        ],
      );
    }
  }
}

const stats = (values) => {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  return { n: s.length, min: s[0], p50: percentile(s, 50), p90: percentile(s, 90), max: s.at(-1) };
};

export async function benchDetection({
  monitors = num('BENCH_DETECTION_MONITORS', 20),
  warmMs = num('BENCH_DETECTION_WARM_S', 60) * 1000,
  tailMs = num('BENCH_DETECTION_TAIL_S', 60) * 1000,
  groups = plansOf(process.env.BENCH_DETECTION_PLANS),
} = {}) {
  const targetPort = 3380;
  const smtpPort = 3381;
  const apiPort = 3382;
  const targetBase = `http://127.0.0.1:${targetPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-detection-'));
  const target = spawnChild(
    ['bench/target-server.mjs', String(targetPort)],
    {},
    { readyLine: 'ready', name: 'target' },
  );
  let server = null;
  let smtp = null;
  try {
    await target.ready;
    smtp = await startSmtp(smtpPort);
    const env = {
      ROLE: 'all',
      SANDBOX: 'off',
      DATA_DIR: dataDir,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    };
    // First start on the empty folder (migrations), then the monitors are written with PGlite directly while
    // the server is stopped (PGlite is one process's), and it starts again.
    server = await startServer(env, { port: apiPort, name: 'vigil' });
    await stopChild(server);
    server = null;
    const { PGlite } = await import('@electric-sql/pglite');
    const restartMs = 15_000; // the warm start takes a few seconds
    const tMs = Date.now() + restartMs + warmMs;
    let lite = new PGlite(join(dataDir, 'pglite'));
    await seed((text, params) => lite.query(text, params), { groups, monitors, targetBase, tMs });
    await lite.close();
    server = await startServer(env, { port: apiPort, name: 'vigil' });
    const readyMs = Date.now();
    console.error(
      `detection: ${groups.length} × ${monitors} monitors, server ready ${((tMs - readyMs) / 1000).toFixed(1)} s before T`,
    );
    if (readyMs > tMs - 5_000)
      throw new Error('the server started too late for the warm-up; raise BENCH_DETECTION_WARM_S');

    await sleep(tMs - Date.now());
    const t0 = Date.now();
    await fetch(`${targetBase}/__fail`, { method: 'POST' });
    const t1 = Date.now();
    console.error(`T: the target fails under /down/ (switched in ${t1 - t0} ms)`);
    const endMs = tMs + Math.max(...groups.map((g) => g.intervalS)) * 1000 + tailMs;
    const expected = groups.length * monitors;
    while (Date.now() < endMs) {
      if (smtp.received.size >= expected) break;
      await sleep(500);
    }
    const lastEmailWait = Date.now();
    await sleep(2000); // late duplicates, if any
    await stopChild(server);
    server = null;

    lite = new PGlite(join(dataDir, 'pglite'));
    const query = (text, params) => lite.query(text, params);
    const { rows: checks } = await query(
      `select m.name, m.interval_seconds, c.ok,
         (extract(epoch from c.slot_at) * 1000)::float8 as slot_ms,
         (extract(epoch from c.checked_at) * 1000)::float8 as checked_ms
       from check_results c join monitors m on m.id = c.monitor_id
       order by c.checked_at`,
    );
    const { rows: incidents } = await query(
      `select m.name, (extract(epoch from i.opened_at) * 1000)::float8 as opened_ms,
         (extract(epoch from d.sent_at) * 1000)::float8 as sent_ms
       from incidents i join monitors m on m.id = i.monitor_id
       left join alert_deliveries d on d.incident_id = i.id and d.event = 'opened'`,
    );
    await lite.close();

    const byName = new Map();
    for (const row of checks) {
      const list = byName.get(row.name) ?? [];
      list.push(row);
      byName.set(row.name, list);
    }
    const results = [];
    for (const group of groups) {
      const interval = group.intervalS * 1000;
      const key = group.plan.toLowerCase();
      const rows = {
        toFirst: [],
        toConfirm: [],
        firstToConfirm: [],
        toOpened: [],
        toSent: [],
        toEmail: [],
        firstToEmail: [],
        confirmToEmail: [],
        without: [],
        healthyBefore: [],
        unhealthyBefore: 0,
        incidents: 0,
        emails: 0,
        duplicates: 0,
      };
      for (let i = 0; i < monitors; i += 1) {
        const name = `${key}-${i}`;
        const list = byName.get(name) ?? [];
        const healthy = list.filter((r) => r.ok && r.checked_ms < tMs).length;
        rows.healthyBefore.push(healthy);
        if (list.some((r) => !r.ok && r.checked_ms < tMs - 1000)) rows.unhealthyBefore += 1;
        const failed = list.filter((r) => !r.ok);
        const [first, confirm] = failed;
        const incident = incidents.find((r) => r.name === name);
        const emails = smtp.received.get(`${name}@bench.local`) ?? [];
        const email = emails[0];
        if (incident) rows.incidents += 1;
        if (email !== undefined) rows.emails += 1;
        rows.duplicates += Math.max(0, emails.length - 1);
        if (first) {
          rows.toFirst.push(first.checked_ms - tMs);
          if (email !== undefined) rows.firstToEmail.push(email - first.checked_ms);
        }
        if (confirm) {
          rows.toConfirm.push(confirm.checked_ms - tMs);
          rows.firstToConfirm.push(confirm.checked_ms - first.checked_ms);
          if (email !== undefined) {
            rows.confirmToEmail.push(email - confirm.checked_ms);
            // Before issue 12 the confirming check was the first failure's next slot, one interval on: the same
            // drift and delivery after it.
            rows.without.push(first.slot_ms + interval + (email - confirm.slot_ms) - tMs);
          }
        }
        if (incident) rows.toOpened.push(incident.opened_ms - tMs);
        if (incident?.sent_ms) rows.toSent.push(incident.sent_ms - tMs);
        if (email !== undefined) rows.toEmail.push(email - tMs);
      }
      results.push({
        plan: group.label,
        intervalS: group.intervalS,
        monitors,
        incidents: rows.incidents,
        emails: rows.emails,
        duplicates: rows.duplicates,
        unhealthyBefore: rows.unhealthyBefore,
        healthyChecksBeforeT: stats(rows.healthyBefore),
        toFirst: stats(rows.toFirst),
        toConfirm: stats(rows.toConfirm),
        firstToConfirm: stats(rows.firstToConfirm),
        toOpened: stats(rows.toOpened),
        toSent: stats(rows.toSent),
        toEmail: stats(rows.toEmail),
        firstToEmail: stats(rows.firstToEmail),
        confirmToEmail: stats(rows.confirmToEmail),
        without: stats(rows.without),
      });
    }
    return {
      monitors,
      warmS: warmMs / 1000,
      readyBeforeTS: (tMs - readyMs) / 1000,
      switchMs: t1 - t0,
      lastEmailS: (lastEmailWait - tMs) / 1000,
      groups: results,
    };
  } finally {
    if (server) await stopChild(server, 'SIGKILL');
    await stopChild(target.child, 'SIGTERM');
    smtp?.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const s1 = (ms) => (Number.isFinite(ms) ? (ms / 1000).toFixed(1) : '–');
const triple = (s) => `${s1(s.p50)} / ${s1(s.p90)} / ${s1(s.max)} s`;

export function printDetection(run) {
  console.log(
    `\n## Detection time (site down → alert email), confirmations ${CONFIRMATIONS}, ${run.monitors} monitors an interval\n`,
  );
  console.log(
    '| plan (interval) | incidents / emails (dup.) | T → email p50 / p90 / max | T → first failed check | first failed → confirming check | first failed check → email | T → `opened_at` | without the re-check: T → email |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const g of run.groups) {
    console.log(
      `| ${g.plan} (${g.intervalS} s) | ${g.incidents} / ${g.emails} (${g.duplicates}) | **${triple(g.toEmail)}** | ${triple(g.toFirst)} | ${triple(g.firstToConfirm)} | ${triple(g.firstToEmail)} | ${triple(g.toOpened)} | ${triple(g.without)} |`,
    );
  }
  console.log(
    `\nConfirming check → email p50 / max: ${run.groups.map((g) => `${g.plan} ${(g.confirmToEmail.p50 / 1000).toFixed(2)} / ${(g.confirmToEmail.max / 1000).toFixed(2)} s`).join('; ')}. Healthy checks before T per monitor (min–max): ${run.groups.map((g) => `${g.plan} ${g.healthyChecksBeforeT.min}–${g.healthyChecksBeforeT.max}`).join('; ')}; monitors failing before T: ${run.groups.reduce((a, g) => a + g.unhealthyBefore, 0)}.`,
  );
}

/**
 * `node bench/detection.mjs`; env BENCH_DETECTION_MONITORS, BENCH_DETECTION_WARM_S, BENCH_DETECTION_TAIL_S,
 * BENCH_DETECTION_PLANS.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const run = await benchDetection();
  console.error(JSON.stringify(run));
  printDetection(run);
  process.exit(0);
}
