import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { pruneMantineCss } from './prune-css.ts';

const STYLES = `
:root { --mantine-color-red-6: #fa5252; }
.m_aaaaaa { color: red; }
.m_bbbbbb, .m_aaaaaa > .m_cccccc { color: blue; }
.m_aaaaaa:where([data-active]) .m_dddddd { margin: 0; }
.mantine-focus-auto:focus-visible { outline: 2px solid; }
@media (max-width: 40em) { .m_bbbbbb { display: none; } }
@media (min-width: 40em) { .m_aaaaaa { display: flex; } }
@keyframes m_eeeeee { from { opacity: 0; } to { opacity: 1; } }
`;

describe('pruneMantineCss()', () => {
  it('keeps the selectors whose Mantine classes a script holds, and everything else as it was', () => {
    const pruned = pruneMantineCss(STYLES, new Set(['m_aaaaaa', 'm_cccccc']));
    expect(pruned).toContain(':root { --mantine-color-red-6: #fa5252; }');
    expect(pruned).toContain('.m_aaaaaa { color: red; }');
    // One selector of the list stays, the other goes.
    expect(pruned).toContain('.m_aaaaaa > .m_cccccc { color: blue; }');
    expect(pruned).not.toContain('m_bbbbbb');
    // A selector goes when any one of its classes is unused.
    expect(pruned).not.toContain('m_dddddd');
    expect(pruned).toContain('.mantine-focus-auto:focus-visible');
    // The media query left empty goes; the other keeps its rule.
    expect(pruned).not.toContain('max-width: 40em');
    expect(pruned).toContain('@media (min-width: 40em) { .m_aaaaaa { display: flex; } }');
    expect(pruned).toContain('@keyframes m_eeeeee { from { opacity: 0; } to { opacity: 1; } }');
  });

  it("takes half of Mantine's stylesheet away when the app renders half of its components", () => {
    const require = createRequire(import.meta.url);
    const css = readFileSync(require.resolve('@mantine/core/styles.css'), 'utf8');
    const classes = [...new Set(css.match(/\bm_[0-9a-f]+\b/g))];
    const pruned = pruneMantineCss(css, new Set(classes));
    // With every class in use nothing goes (up to whitespace the parser keeps as it found it).
    expect(pruned.length).toBe(css.length);
    const half = pruneMantineCss(css, new Set(classes.filter((_, n) => n % 2 === 0)));
    expect(half.length).toBeLessThan(css.length * 0.8);
    expect(half).toContain(':root');
  });
});
