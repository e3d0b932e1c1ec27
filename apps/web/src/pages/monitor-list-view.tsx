import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { IconPlus } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { MonitorList } from '../features/monitors/components/monitor-list.tsx';

/** /monitor: the list of monitors, a page at a time. */
export default function MonitorListView({
  page,
  onPageChange,
}: {
  page: number;
  onPageChange: (page: number) => void;
}) {
  return (
    <>
      <PageHeader
        title="Monitors"
        description="Each monitor watches a page of your site or your Shopify shop, and alerts you when it breaks."
        actions={
          <Button component={Link} to="/monitor_create" leftSection={<IconPlus />}>
            New monitor
          </Button>
        }
      />
      <MonitorList page={page} onPageChange={onPageChange} />
    </>
  );
}
