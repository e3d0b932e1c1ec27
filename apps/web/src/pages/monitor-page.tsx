import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { HonestEmptyState } from '../components/honest-empty-state.tsx';
import { IconActivity } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';

export default function MonitorPage() {
  return (
    <>
      <PageHeader
        title="Monitors"
        description="Each monitor watches one storefront, Shopify shop, Google Ads or Meta ad account."
      />
      <HonestEmptyState
        icon={<IconActivity size={28} />}
        title="No monitors yet"
        actions={
          <Button component={Link} to="/settings" variant="default">
            Check your alert contacts
          </Button>
        }
      >
        Monitors arrive with the next release of Vigil&apos;s monitoring engine. Your account, contacts and
        plan are ready, so your first monitors can start the day it ships.
      </HonestEmptyState>
    </>
  );
}
