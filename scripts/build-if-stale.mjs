// Builds the web app and the server bundle when their output is missing or older than their sources,
// so `npm start` and `npm test` work on a fresh clone and after a pull without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const targets = [
  {
    name: '@vigil/web',
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/prerender.ts',
      'apps/web/chunks.ts',
      'apps/web/prune-css.ts',
      'apps/web/precompress.ts',
      'apps/web/public',
      'packages/contracts/src',
    ],
  },
  {
    name: '@vigil/server',
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'apps/server/build.mjs', 'packages/contracts/src', 'packages/sandbox/src'],
  },
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildIfStale({ quiet = false } = {}) {
  for (const target of targets) {
    const output = join(root, target.output);
    const built = existsSync(output) ? statSync(output).mtimeMs : 0;
    const changed = Math.max(...target.sources.map((source) => newestMtime(join(root, source))));
    if (built >= changed) continue;
    if (!quiet) console.log(`Building ${target.name} (${built ? 'sources changed' : 'first start'})…`);
    const result = spawnSync('npm', ['run', 'build', '--silent', '-w', target.name], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      console.error(`Building ${target.name} failed; see the output above.`);
      process.exit(result.status ?? 1);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfStale();
