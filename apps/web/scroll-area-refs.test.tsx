import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { render } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { MERGE_REFS, scrollAreaRefs } from './scroll-area-refs.ts';
import { useMergeRefs } from './src/lib/merge-refs.ts';

const SCROLL_AREA = createRequire(import.meta.url)
  .resolve('@mantine/core')
  .replace(/cjs[\\/]index\.cjs$/, 'esm/components/ScrollArea/ScrollArea.mjs');

describe('scrollAreaRefs()', () => {
  const resolveId = scrollAreaRefs().resolveId as (source: string, importer?: string) => string | null;

  it('gives ScrollArea our useMergeRefs, the one thing it takes from floating-ui', () => {
    expect(resolveId('@floating-ui/react', SCROLL_AREA)).toBe(MERGE_REFS);
    const imports = readFileSync(SCROLL_AREA, 'utf8').match(/^import .* from "@floating-ui\/react";$/gm);
    expect(imports).toEqual(['import { useMergeRefs } from "@floating-ui/react";']);
  });

  it('leaves floating-ui to everything else', () => {
    const popover = SCROLL_AREA.replace(/ScrollArea[\\/]ScrollArea\.mjs$/, 'Popover/use-popover.mjs');
    expect(resolveId('@floating-ui/react', popover)).toBeNull();
    expect(resolveId('@floating-ui/react-dom', SCROLL_AREA)).toBeNull();
    expect(resolveId('@floating-ui/react', undefined)).toBeNull();
  });
});

describe('useMergeRefs()', () => {
  it('hands the node to every ref, and null when it goes', () => {
    const object = createRef<HTMLDivElement>();
    const callback = vi.fn();
    function Box() {
      return <div data-testid="box" ref={useMergeRefs([object, callback, undefined])} />;
    }
    const { getByTestId, unmount } = render(<Box />);
    const node = getByTestId('box');
    expect(object.current).toBe(node);
    expect(callback).toHaveBeenLastCalledWith(node);
    unmount();
    expect(object.current).toBeNull();
    expect(callback).toHaveBeenLastCalledWith(null);
  });
});
