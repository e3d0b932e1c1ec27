import { Alert, Button } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { HonestEmptyState } from '../components/honest-empty-state.tsx';
import { IconActivity, IconCircleCheck } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { decodeRedirect, isPendingBinding } from '../app/startup.ts';
import { parseQuery } from '../lib/query-string.ts';

export default function MonitorCreatePage() {
  const { search } = useLocation();
  // The `redirect` parameter stays in the address: it carries a connection started before sign-in.
  const { redirect } = parseQuery(search);
  const pending = redirect ? isPendingBinding(decodeRedirect(redirect)) : false;

  return (
    <>
      <PageHeader
        title="New monitor"
        description="Choose what to watch, the conditions to check and who to alert."
      />
      {pending ? (
        <Alert
          variant="light"
          icon={<IconCircleCheck />}
          title="Your connection is kept"
          mb="lg"
          role="status"
        >
          You started connecting an account before signing in. Vigil keeps it in this page&apos;s address, so
          it is picked up here when monitor creation opens.
        </Alert>
      ) : null}
      <HonestEmptyState
        icon={<IconActivity size={28} />}
        title="Monitor creation opens with the monitoring engine"
        actions={
          <Button component={Link} to="/monitor" variant="default">
            Back to monitors
          </Button>
        }
      >
        Website, Shopify, Google Ads and Meta ads monitors arrive with the next release of Vigil&apos;s
        monitoring engine.
      </HonestEmptyState>
    </>
  );
}
