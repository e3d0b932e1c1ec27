// `npm start`: build what is missing, then run Vigil in this one process (API, web app, workers, sandbox).
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
await import('../apps/server/dist/main.js');
