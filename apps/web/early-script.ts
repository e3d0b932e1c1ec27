import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';

/** The early script's source: it asks for the page's first data (src/early.ts). */
export const EARLY_ENTRY = join(import.meta.dirname, 'src/early.ts');

/** The early script as a browser runs it: one classic script, nothing imported, minified. */
export async function buildEarlyScript(): Promise<string> {
  const bundle = await rolldown({ input: EARLY_ENTRY, platform: 'browser', logLevel: 'warn' });
  try {
    const { output } = await bundle.generate({ format: 'iife', minify: true });
    if (output.length !== 1) throw new Error('The early script came out as more than one file.');
    return output[0].code;
  } finally {
    await bundle.close();
  }
}

/**
 * The Vite plugin that builds the early script on its own (its few modules are also in the entry) and runs it from
 * index.html before the entry: a `defer` script ahead of the entry's module script runs first, as soon as the page
 * is parsed, without holding the first paint. The page's first data was asked for as the entry ran, so a phone
 * waited for the entry (94 kB) to arrive and run before asking; now the data is on its way beside the code.
 */
export function earlyScript(): Plugin {
  let base = '/';
  let code = '';
  let fileName = '';
  return {
    name: 'vigil-early-script',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    async buildStart() {
      code = await buildEarlyScript();
      fileName = `assets/early-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: code });
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'script', attrs: { defer: true, src: `${base}${fileName}` }, injectTo: 'head-prepend' },
      ],
    },
  };
}
