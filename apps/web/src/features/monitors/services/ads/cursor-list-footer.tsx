import { Button, VisuallyHidden } from '@mantine/core';
import { ListLoadFailed } from '../../components/picker-parts.tsx';
import { countOf } from './ads-format.ts';
import type { CursorList } from './use-cursor-list.ts';

/**
 * Under a list read a page at a time: "Load more", or why the next page failed with Retry, and for screen
 * readers how many are listed. `noun` is one item's name ("ad set").
 */
export function CursorListFooter({ list, noun }: { list: CursorList<unknown>; noun: string }) {
  const { items, status, loaded, hasMore } = list;
  return (
    <>
      {loaded && status === 'failed' ? (
        <ListLoadFailed title={`More ${noun}s could not be loaded`} onRetry={list.retry} />
      ) : null}
      {loaded && hasMore && status !== 'failed' ? (
        <Button
          variant="default"
          onClick={list.loadMore}
          loading={status === 'loading'}
          style={{ alignSelf: 'flex-start' }}
        >
          {`Load more ${noun}s`}
        </Button>
      ) : null}
      <VisuallyHidden role="status" aria-live="polite">
        {status === 'loading'
          ? `Loading ${noun}s…`
          : loaded
            ? `${countOf(items.length, noun)} listed${hasMore ? ', more to load' : ''}.`
            : ''}
      </VisuallyHidden>
    </>
  );
}
