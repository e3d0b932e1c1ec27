// Preloaded into the server by bench/idle.mjs (`node --import ./bench/memory-probe.mjs …`): on SIGUSR2 it
// writes one line `memory-probe {json}` to stderr with process.memoryUsage() and V8's heap spaces, so the
// benchmark can say where the resident memory goes without the server knowing about it.
import { getHeapSpaceStatistics } from 'node:v8';

const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

process.on('SIGUSR2', () => {
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((space) => [space.space_name, mib(space.space_used_size)]),
  );
  const report = {
    rss: mib(usage.rss),
    heapTotal: mib(usage.heapTotal),
    heapUsed: mib(usage.heapUsed),
    external: mib(usage.external),
    arrayBuffers: mib(usage.arrayBuffers),
    spaces,
  };
  process.stderr.write(`memory-probe ${JSON.stringify(report)}\n`);
});
