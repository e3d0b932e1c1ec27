import { lazyDialog } from '../../../components/lazy-dialog.tsx';
import type { ConfirmDeleteProps } from './confirm-delete-modal.tsx';

/** The delete confirmation of the list and of a monitor's page, fetched when first opened (or pointed at). */
export const ConfirmDelete = lazyDialog<ConfirmDeleteProps>(
  () => import('./confirm-delete-modal.tsx').then((module) => module.ConfirmDeleteModal),
  { isOpen: (props) => props.opened, close: (props) => props.onCancel(), what: 'delete dialog' },
);
