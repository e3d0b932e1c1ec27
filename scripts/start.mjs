// `npm start`: build what is missing, then run Vigil in this one process (API, web app, workers, sandbox).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
// A person watching a terminal gets readable log lines; a log collector (no terminal) gets JSON.
process.env.LOG_FORMAT ??= process.stdout.isTTY ? 'pretty' : 'json';
await import('../apps/server/dist/main.js');
