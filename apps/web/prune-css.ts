import { createHash } from 'node:crypto';
import postcss, { type AtRule } from 'postcss';
import type { Plugin } from 'vite';

/** Mantine's hashed class names (`m_8983817`): its components' scripts hold them, its stylesheets select them. */
const MANTINE_CLASS = /\bm_[0-9a-f]+\b/g;

/**
 * `css` without what selects a Mantine class that none of the app's scripts holds: the rules of components the
 * app never renders (half of Mantine's stylesheet). A rule keeps the selectors whose every Mantine class is in
 * `used`, and goes when none is left; rules without such a class (variables, the baseline) stay as they are.
 */
export function pruneMantineCss(css: string, used: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && (rule.parent as AtRule).name.endsWith('keyframes')) return;
    const kept = rule.selectors.filter((selector) =>
      (selector.match(MANTINE_CLASS) ?? []).every((name) => used.has(name)),
    );
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  // A media query (or layer) whose rules have all gone goes with them.
  root.walkAtRules((atRule) => {
    if (atRule.nodes?.length === 0) atRule.remove();
  });
  return root.toString();
}

/** A hash of `source` as long as `old`, in the letters Rolldown names files with. */
function hashLike(old: string, source: string): string {
  return createHash('sha256').update(source).digest('base64url').slice(0, old.length);
}

/**
 * The Vite plugin: once the bundle is rendered, prunes each stylesheet to the Mantine classes its scripts hold (all
 * chunks, so every page's components keep their styles) and names it for its new content, so a browser that cached
 * the old file for good never pairs it with new scripts; the names in index.html and the chunks follow.
 */
export function pruneCss(): Plugin {
  return {
    name: 'vigil-prune-css',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const used = new Set<string>();
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk') for (const name of file.code.match(MANTINE_CLASS) ?? []) used.add(name);
        }
        const renamed = new Map<string, string>();
        for (const [fileName, file] of Object.entries(bundle)) {
          if (file.type !== 'asset' || !fileName.endsWith('.css')) continue;
          const source = pruneMantineCss(String(file.source), used);
          const match = /-([A-Za-z0-9_-]+)\.css$/.exec(fileName);
          const next = match
            ? fileName.replace(/-[A-Za-z0-9_-]+\.css$/, `-${hashLike(match[1]!, source)}.css`)
            : fileName;
          delete bundle[fileName];
          this.emitFile({ type: 'asset', fileName: next, source });
          if (next !== fileName)
            renamed.set(fileName.slice(fileName.lastIndexOf('/') + 1), next.slice(next.lastIndexOf('/') + 1));
        }
        for (const file of Object.values(bundle)) {
          for (const [from, to] of renamed) {
            if (file.type === 'chunk') file.code = file.code.replaceAll(from, to);
            else if (typeof file.source === 'string') file.source = file.source.replaceAll(from, to);
          }
        }
      },
    },
  };
}
