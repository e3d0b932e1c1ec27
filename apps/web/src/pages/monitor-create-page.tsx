import { Alert } from '@mantine/core';
import { useLocation } from 'react-router';
import { IconAlertTriangle, IconCircleCheck } from '../components/icons.tsx';
import { decodeRedirect, isPendingBinding } from '../app/startup.ts';
import { useClaimBinding } from '../features/monitors/connect/claim-binding.ts';
import { parseQuery } from '../lib/query-string.ts';
import { MonitorFormPage } from './monitor-form-page.tsx';

export default function MonitorCreatePage() {
  const { search } = useLocation();
  // `redirect` stays in this page's address (nothing here navigates without it, so the startup rules never
  // bounce) and goes on to the plans page. With `{auth:'false', key}` it carries a shop installed from
  // Shopify's side before sign-in: the page claims it once and opens the form on it.
  const { redirect } = parseQuery(search);
  const pending = redirect ? decodeRedirect(redirect) : null;
  const claim = useClaimBinding(isPendingBinding(pending) ? String(pending.key) : undefined);

  let notice = null;
  if (claim.status === 'done' && claim.ok) {
    notice = (
      <Alert variant="light" icon={<IconCircleCheck />} mb="lg" role="status" maw={880}>
        {claim.connection.account} is connected: choose the products to watch
      </Alert>
    );
  } else if (claim.status === 'done') {
    notice = (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle />}
        title="The shop could not be connected"
        mb="lg"
        role="alert"
        maw={880}
      >
        {claim.message} You can still create a monitor here, and connect the shop from the form.
      </Alert>
    );
  }

  return (
    <MonitorFormPage
      title="New monitor"
      description="Choose what to watch, the checks to run and who to alert."
      redirect={redirect}
      notice={notice}
      waiting={claim.status === 'claiming'}
      connection={claim.status === 'done' && claim.ok ? claim.connection : undefined}
    />
  );
}
