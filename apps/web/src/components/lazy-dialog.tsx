import { useEffect, useState, type ComponentType } from 'react';
import { showErrorToast } from '../lib/api-client.ts';

interface LazyDialogOptions<P> {
  /** Whether these props ask for the dialog to be open. */
  isOpen: (props: P) => boolean;
  /** Closes it again when its code cannot be fetched (the opener's own cancel). */
  close: (props: P) => void;
  /** What the dialog is, for the toast when its code does not come: "The delete dialog did not load." */
  what: string;
}

/**
 * A dialog whose code is fetched the first time it opens, or earlier when `preload` is called (a pointer or focus
 * coming to what opens it), so Mantine's Modal, with its focus trap, scroll lock, scroll area and transitions, stays
 * off a page's first load. Until its code is in, it renders nothing; a fetch that fails closes it with a toast and
 * is forgotten, so the next opening tries again.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { isOpen, close, what }: LazyDialogOptions<P>,
) {
  let loaded: ComponentType<P> | null = null;
  let code: Promise<ComponentType<P>> | null = null;
  const fetchCode = () => {
    code ??= load().then(
      (dialog) => (loaded = dialog),
      (error: unknown) => {
        code = null;
        throw error;
      },
    );
    return code;
  };

  function LazyDialog(props: P) {
    const [Dialog, setDialog] = useState<ComponentType<P> | null>(() => loaded);
    const open = isOpen(props);
    useEffect(() => {
      if (!open || Dialog) return;
      let current = true;
      fetchCode().then(
        (dialog) => current && setDialog(() => dialog),
        () => {
          if (!current) return;
          showErrorToast(`The ${what} did not load. Check your connection and try again.`);
          close(props);
        },
      );
      return () => {
        current = false;
      };
    }, [open, Dialog, props]);
    return Dialog ? <Dialog {...props} /> : null;
  }

  return Object.assign(LazyDialog, { preload: () => void fetchCode().catch(() => undefined) });
}
