import type { OutputBundle } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { chunkFilesNamed, PRELOADED_GROUPS, preloadFirstLoadChunks } from './chunks.ts';

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
