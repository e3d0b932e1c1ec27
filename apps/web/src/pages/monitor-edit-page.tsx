import { Button } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { HonestEmptyState } from '../components/honest-empty-state.tsx';
import { IconActivity } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { parseQuery } from '../lib/query-string.ts';
import { MonitorFormPage } from './monitor-form-page.tsx';

export default function MonitorEditPage() {
  const { search } = useLocation();
  const { monitorId } = parseQuery(search);
  if (!monitorId) {
    return (
      <>
        <PageHeader title="Edit monitor" />
        <HonestEmptyState
          icon={<IconActivity size={28} />}
          title="Choose a monitor to edit"
          actions={
            <Button component={Link} to="/monitor" variant="default">
              Back to monitors
            </Button>
          }
        >
          Open a monitor from the list, then choose Edit.
        </HonestEmptyState>
      </>
    );
  }
  return (
    <MonitorFormPage
      key={monitorId}
      title="Edit monitor"
      description="Change what is checked, how often, and who is alerted."
      monitorId={monitorId}
    />
  );
}
