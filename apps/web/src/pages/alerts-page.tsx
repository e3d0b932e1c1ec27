import { Alert, Group, Select, Stack } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { ACK_LINK_ERRORS, INCIDENT_STATES, type AckLinkError, type IncidentState } from '@vigil/contracts';
import { IconAlertTriangle, IconCircleCheck } from '../components/icons.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { AlertList } from '../features/alerts/components/alert-list.tsx';
import { STATE_LABELS } from '../features/alerts/components/alert-state-badge.tsx';
import { getMonitors } from '../features/monitors/api/get-monitors.ts';
import { pageFromQuery, parseQuery, stringifyQuery, type Query } from '../lib/query-string.ts';
import { useRequest } from '../lib/use-request.ts';

export const ALERT_PAGE_SIZE = 20;

/** What to say when the acknowledge link of an alert email did not work (the server's `ackError` reasons). */
const ACK_ERRORS: Record<AckLinkError, string> = {
  invalid: 'That acknowledge link is damaged. Acknowledge the alert here instead.',
  expired: 'That acknowledge link has expired. Acknowledge the alert here instead.',
  resolved: 'That alert was already resolved: the check passed again, so nothing more is sent for it.',
  not_found: 'That alert no longer exists: its monitor may have been deleted.',
  failed: 'Vigil could not acknowledge the alert just now. Acknowledge it here, or try the link again.',
};
const ACK_ERROR_FALLBACK = 'The alert could not be acknowledged from that link. Acknowledge it here instead.';

function ackErrorMessage(reason: string): string {
  return (ACK_LINK_ERRORS as readonly string[]).includes(reason)
    ? ACK_ERRORS[reason as AckLinkError]
    : ACK_ERROR_FALLBACK;
}

const STATE_OPTIONS = INCIDENT_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }));

function isState(value: string | undefined): value is IncidentState {
  return (INCIDENT_STATES as readonly string[]).includes(value ?? '');
}

export default function AlertsPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const query = parseQuery(search);
  const page = pageFromQuery(query.page);
  const state = isState(query.state) ? query.state : undefined;
  const monitorId = query.monitorId || undefined;
  const monitors = useRequest('alert-filter-monitors', (signal) =>
    getMonitors({ page: 1, pageSize: 100 }, signal),
  );
  const monitorOptions = (monitors.data?.list ?? []).map((monitor) => ({
    value: monitor.monitorId,
    label: monitor.name,
  }));

  function go(change: Query, replace = false) {
    void navigate({ pathname: '/alerts', search: stringifyQuery({ ...query, ...change }) }, { replace });
  }

  const ackError = query.ackError;
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Every incident, newest first, with the alerts it sent and whether they were delivered."
      />
      <Stack gap="md">
        {query.acknowledged ? (
          <Alert
            color="green"
            variant="light"
            icon={<IconCircleCheck />}
            title="Alert acknowledged"
            role="status"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => go({ acknowledged: '' }, true)}
          >
            No more repeat alerts go out for it. You still get the recovery notice when the check passes
            again.
          </Alert>
        ) : null}
        {ackError !== undefined ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle />}
            title="The alert was not acknowledged"
            role="alert"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => go({ ackError: '' }, true)}
          >
            {ackErrorMessage(ackError)}
          </Alert>
        ) : null}
        <Group gap="sm" align="flex-end">
          <Select
            label="Monitor"
            placeholder="All monitors"
            data={
              monitorId && !monitorOptions.some((o) => o.value === monitorId)
                ? [...monitorOptions, { value: monitorId, label: 'This monitor' }]
                : monitorOptions
            }
            value={monitorId ?? null}
            onChange={(value) => go({ monitorId: value ?? '', page: '' })}
            clearable
            searchable
            nothingFoundMessage="No monitor of that name"
            w={{ base: '100%', xs: 260 }}
          />
          <Select
            label="State"
            placeholder="All states"
            data={STATE_OPTIONS}
            value={state ?? null}
            onChange={(value) => go({ state: value ?? '', page: '' })}
            clearable
            w={{ base: '100%', xs: 200 }}
          />
        </Group>
        <AlertList
          query={{ page, pageSize: ALERT_PAGE_SIZE, monitorId, state }}
          onPageChange={(next) => go({ page: next > 1 ? String(next) : '' })}
          empty={
            monitorId || state
              ? {
                  title: 'No alerts match',
                  text: 'No incident matches these filters. Clear them to see every alert.',
                }
              : {
                  title: 'No alerts yet',
                  text: 'When a monitor finds a problem, the incident and every email, text and call it sent show here.',
                }
          }
        />
      </Stack>
    </>
  );
}
