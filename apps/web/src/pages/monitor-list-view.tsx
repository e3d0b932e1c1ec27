import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { IconPlus } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { MonitorList } from '../features/monitors/components/monitor-list.tsx';
import { MonitorDetailView } from './monitor-views.ts';

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
      {/* A pointer over the list or focus in it fetches the detail's code, so opening a monitor shows no spinner. */}
      <div onPointerOver={MonitorDetailView.preload} onFocus={MonitorDetailView.preload}>
        <MonitorList page={page} onPageChange={onPageChange} />
      </div>
    </>
  );
}
