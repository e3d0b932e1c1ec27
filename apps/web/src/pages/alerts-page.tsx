import { HonestEmptyState } from '../components/honest-empty-state.tsx';
import { IconBell } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';

export default function AlertsPage() {
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Every incident, the calls, texts and emails it sent, and whether they were delivered."
      />
      <HonestEmptyState icon={<IconBell size={28} />} title="No alerts yet">
        Alerts are sent when a monitor finds a problem. Monitors, and with them alerts, arrive with the next
        release of Vigil&apos;s monitoring engine.
      </HonestEmptyState>
    </>
  );
}
