import { lazyDialog } from '../../../components/lazy-dialog.tsx';
import type { ResolveAlertProps } from './resolve-alert-dialog.tsx';

/** Resolving by hand, fetched when first opened (or pointed at): the alert list is on a monitor's page. */
export const ResolveAlert = lazyDialog<ResolveAlertProps>(
  () => import('./resolve-alert-dialog.tsx').then((module) => module.ResolveAlertDialog),
  { isOpen: (props) => props.alert !== null, close: (props) => props.onClose(), what: 'resolve dialog' },
);
