import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { HonestEmptyState } from '../components/honest-empty-state.tsx';
import { IconActivity } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';

export default function MonitorEditPage() {
  return (
    <>
      <PageHeader title="Edit monitor" />
      <HonestEmptyState
        icon={<IconActivity size={28} />}
        title="There is no monitor to edit yet"
        actions={
          <Button component={Link} to="/monitor" variant="default">
            Back to monitors
          </Button>
        }
      >
        Monitors, and editing their conditions, intervals and alert settings, arrive with the next release of
        Vigil&apos;s monitoring engine.
      </HonestEmptyState>
    </>
  );
}
