// Summarises the traces `lighthouse.mjs` keeps (BENCH_LIGHTHOUSE_REPORTS=<dir> BENCH_LIGHTHOUSE_TRACES=1): per run,
// Lighthouse's score, FCP and TBT beside what the page's main thread did unthrottled (style, layout, script, the
// longest tasks and what filled them), so a score that moves can be traced to the work that moved it.
//
// `node bench/lighthouse-trace.mjs <dir> [longest tasks, 5]`
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, topArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/lighthouse-trace.mjs <dir> [longest tasks]');
  process.exit(2);
}
const top = Number(topArg ?? 5);
const ms = (us) => (us / 1000).toFixed(1);

for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.trace.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, file.replace(/\.trace\.json$/, '.json')), 'utf8'));
  const events = JSON.parse(readFileSync(join(dir, file), 'utf8')).traceEvents;
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL,
  );
  const thread = events.find(
    (e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain' && e.pid === navigation.pid,
  );
  const main = events.filter(
    (e) => e.pid === navigation.pid && e.tid === thread.tid && e.ph === 'X' && e.ts >= navigation.ts,
  );
  const total = (name) => main.filter((e) => e.name === name).reduce((sum, e) => sum + e.dur, 0);
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid);
  const audits = report.audits;
  console.log(
    `${file}: performance ${Math.round(report.categories.performance.score * 100)}, FCP ${Math.round(audits['first-contentful-paint'].numericValue)} ms, TBT ${Math.round(audits['total-blocking-time'].numericValue)} ms (simulated); unthrottled: first paint at ${fcp ? ms(fcp.ts - navigation.ts) : '–'} ms, style ${ms(total('UpdateLayoutTree'))} ms, layout ${ms(total('Layout'))} ms, script ${ms(total('v8.callFunction') + total('EvaluateScript') + total('v8.evaluateModule'))} ms`,
  );
  const tasks = main
    .filter((e) => e.name === 'RunTask')
    .sort((a, b) => b.dur - a.dur)
    .slice(0, top);
  for (const task of tasks) {
    // What filled the task: its direct kinds of work over a millisecond, summed by name.
    const parts = new Map();
    for (const e of main) {
      if (e === task || e.ts < task.ts || e.ts + e.dur > task.ts + task.dur || e.dur < 1000) continue;
      if (
        ![
          'UpdateLayoutTree',
          'Layout',
          'Paint',
          'EvaluateScript',
          'v8.evaluateModule',
          'v8.callFunction',
          'ParseHTML',
          'MinorGC',
          'MajorGC',
        ].includes(e.name)
      )
        continue;
      parts.set(e.name, (parts.get(e.name) ?? 0) + e.dur);
    }
    const filled = [...parts].map(([name, dur]) => `${name} ${ms(dur)}`).join(', ');
    console.log(
      `  at ${ms(task.ts - navigation.ts).padStart(6)} ms: ${ms(task.dur).padStart(5)} ms  ${filled}`,
    );
  }
}
