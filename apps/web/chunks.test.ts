import type { OutputBundle } from 'rolldown';
import { describe, expect, it } from 'vitest';
import {
  chunkFilesNamed,
  COMPILE_HINT,
  compileHints,
  PRELOADED_GROUPS,
  preloadFirstLoadChunks,
} from './chunks.ts';

const chunk = (name: string, fileName: string, isEntry = false) => ({
  type: 'chunk',
  name,
  fileName,
  isEntry,
});
const BUNDLE = {
  'assets/index-a1.js': chunk('index', 'assets/index-a1.js', true),
  'assets/signed-in-b2.js': chunk('signed-in', 'assets/signed-in-b2.js'),
  'assets/signed-out-c3.js': chunk('signed-out', 'assets/signed-out-c3.js'),
  'assets/index-d4.css': { type: 'asset', name: 'signed-in', fileName: 'assets/index-d4.css' },
} as unknown as OutputBundle;

// The plugin's index.html hook, as Vite calls it after a build (its base from the resolved config).
function tagsFor(bundle: OutputBundle | undefined) {
  const plugin = preloadFirstLoadChunks();
  (plugin.configResolved as (config: { base: string }) => void)({ base: '/app/' });
  const hook = plugin.transformIndexHtml as {
    handler: (html: string, ctx: { bundle?: OutputBundle }) => unknown;
  };
  return hook.handler('<html></html>', { bundle });
}

describe('preloading the first load’s chunks', () => {
  it('names the signed-in chunk, and no entry, asset or other chunk', () => {
    expect(PRELOADED_GROUPS).toEqual(['signed-in']);
    expect(chunkFilesNamed(BUNDLE, PRELOADED_GROUPS)).toEqual(['assets/signed-in-b2.js']);
    expect(tagsFor(BUNDLE)).toEqual([
      {
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: '/app/assets/signed-in-b2.js' },
        injectTo: 'head',
      },
    ]);
  });

  it('fails the build when the chunk is not there (a renamed group)', () => {
    const { ['assets/signed-in-b2.js']: _, ...withoutIt } = BUNDLE;
    expect(() => tagsFor(withoutIt)).toThrow(/no single chunk for each of signed-in/);
    expect(() => tagsFor(undefined)).toThrow(/no single chunk/);
  });
});

describe('the compile hint on the first-load chunks', () => {
  // A bundle as the plugin's hook sees it: chunks with their code, each source map an asset of its own.
  function built() {
    const file = (name: string, fileName: string, isEntry = false) => ({
      ...chunk(name, fileName, isEntry),
      code: `const first=1;\n// ${name}`,
    });
    const map = (fileName: string) => ({
      type: 'asset',
      fileName: `${fileName}.map`,
      source: JSON.stringify({ version: 3, mappings: 'AAAA;AACA' }),
    });
    const bundle: Record<string, unknown> = {};
    for (const [name, fileName, isEntry] of [
      ['index', 'assets/index-a1.js', true],
      ['signed-in', 'assets/signed-in-b2.js', false],
      ['signed-out', 'assets/signed-out-c3.js', false],
    ] as const) {
      bundle[fileName] = file(name, fileName, isEntry);
      bundle[`${fileName}.map`] = map(fileName);
    }
    const hook = compileHints().generateBundle as { handler: (options: unknown, bundle: unknown) => void };
    hook.handler({}, bundle);
    return bundle as Record<string, { code?: string; source?: string }>;
  }

  it('starts the entry and the signed-in chunk with it, their source maps a line lower', () => {
    const bundle = built();
    for (const file of ['assets/index-a1.js', 'assets/signed-in-b2.js']) {
      expect(bundle[file]?.code?.split('\n')).toEqual([COMPILE_HINT, 'const first=1;', expect.any(String)]);
      expect(JSON.parse(bundle[`${file}.map`]?.source ?? '')).toEqual({ version: 3, mappings: ';AAAA;AACA' });
    }
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad');
  });

  it('leaves the other chunks as they are', () => {
    const bundle = built();
    expect(bundle['assets/signed-out-c3.js']?.code).toBe('const first=1;\n// signed-out');
    expect(JSON.parse(bundle['assets/signed-out-c3.js.map']?.source ?? '').mappings).toBe('AAAA;AACA');
  });
});
