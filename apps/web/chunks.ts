import type { CodeSplittingGroup, OutputBundle } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * Chunks for first loads: the entry and two chunks, not dozens. Every file is a request, and over HTTP/1.1 a phone
 * waits a round trip for most of them, six at a time: Lighthouse's simulated phone paid about a second for the 41
 * files the monitor list loaded. Each group takes the modules its test matches with everything they import in turn,
 * bar what a group before it took; what no group takes is split as Rolldown splits it.
 */
export const FIRST_LOAD_GROUPS: CodeSplittingGroup[] = [
  // The toasts' container, loaded with the first toast (app/providers.tsx): its modules only, which Rolldown would
  // otherwise put where the notifications store goes, with the pages that show toasts.
  {
    name: 'toasts',
    test: /\/src\/app\/toasts\.ts$|[\\/]node_modules[\\/](@mantine[\\/]notifications[\\/]esm[\\/](?!index|notifications\.store)|react-transition-group[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/]Notification[\\/])/,
    includeDependenciesRecursively: false,
    priority: 4,
  },
  // Everything the entry imports statically, in one chunk with it. Left alone, Rolldown cuts the modules the entry
  // shares with lazy chunks into small chunks of their own.
  { name: 'index', tags: ['$initial'], priority: 3 },
  // What every signed-in first load runs: the startup gate with the shell, and the monitor page with both its views
  // (a merchant lands on the list, or on one monitor from an alert's link).
  {
    name: 'signed-in',
    test: /\/src\/(app\/startup-gate|pages\/monitor-(page|list-view|detail-view))\.tsx$/,
    priority: 2,
  },
  // The pages a signed-out visitor arrives on, with what they need beyond the signed-in chunk. They load that chunk
  // too (its shared parts, Mantine's inputs say, are theirs): which is where a sign-in leads, whose page then shows
  // without waiting for its code. The login page is painted before any script runs (prerender.ts), so it costs its
  // first paint nothing.
  { name: 'signed-out', test: /\/src\/pages\/(login|register|oauth)-page\.tsx$/, priority: 1 },
];

/** The groups every first load runs besides the entry, fetched with it (`preloadFirstLoadChunks`). */
export const PRELOADED_GROUPS = ['signed-in'];

/**
 * V8's explicit compile hint (Chromium 136 on): a file that starts with it has all its functions compiled as it is
 * streamed in, off the main thread, instead of each one lazily there on its first call. The entry and the
 * signed-in chunk are what every first load runs; compiled lazily, their first render's tasks ran past React's
 * 5 ms slices (10–34 ms here, four times that on Lighthouse's phone). Other browsers read it as a comment.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The Vite plugin that puts `COMPILE_HINT` on the first line of the entry and the chunks of `PRELOADED_GROUPS`,
 * above Vite's own first line (its preload list): it runs once minifying (which drops comments) and Vite are done,
 * and moves the source map down a line to match.
 */
export function compileHints(): Plugin {
  return {
    name: 'vigil-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue;
          if (!output.isEntry && !PRELOADED_GROUPS.includes(output.name)) continue;
          output.code = `${COMPILE_HINT}\n${output.code}`;
          // The source map is an asset of its own by now: its lines move down by one, an empty first line.
          const map = bundle[`${output.fileName}.map`];
          if (map?.type === 'asset') {
            const json = JSON.parse(String(map.source)) as { mappings: string };
            map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
          }
        }
      },
    },
  };
}

/** The built files of the chunks named in `names`, as an output bundle lists them. */
export function chunkFilesNamed(bundle: OutputBundle, names: readonly string[]): string[] {
  return Object.values(bundle)
    .filter((output) => output.type === 'chunk' && !output.isEntry && names.includes(output.name))
    .map((chunk) => chunk.fileName)
    .sort();
}

/**
 * The Vite plugin that names the chunks of `PRELOADED_GROUPS` in index.html as `<link rel="modulepreload">`, so
 * the browser fetches them beside the entry. The entry imports them dynamically (the router's preload), which
 * Vite does not preload: a phone otherwise asked for the signed-in chunk only once the entry had arrived and run,
 * a round trip and the entry's evaluation later. Every page of index.html runs that chunk (the private pages'
 * startup gate, and the signed-out pages' shared parts), as does the prerendered login page, a copy of it.
 */
export function preloadFirstLoadChunks(): Plugin {
  let base = '/';
  return {
    name: 'vigil-preload-first-load-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const files = bundle ? chunkFilesNamed(bundle, PRELOADED_GROUPS) : [];
        if (files.length !== PRELOADED_GROUPS.length) {
          throw new Error(`The build has no single chunk for each of ${PRELOADED_GROUPS.join(', ')}.`);
        }
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
