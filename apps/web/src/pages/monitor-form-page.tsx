import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from 'react-router';
import type { Connection, MonitorInput } from '@vigil/contracts';
import { ErrorState, SectionSpinner } from '../components/page-states.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { createMonitor } from '../features/monitors/api/create-monitor.ts';
import { getMonitorInfo } from '../features/monitors/api/get-monitor-info.ts';
import { getMonitorService } from '../features/monitors/api/get-monitor-service.ts';
import { updateMonitor } from '../features/monitors/api/update-monitor.ts';
import { MonitorForm } from '../features/monitors/components/monitor-form.tsx';
import { clearOAuthReturn, isReturnTo, readOAuthReturn } from '../features/monitors/connect/oauth-return.ts';
import { MONITOR_CREATE_PATH, monitorDetailPath, monitorEditPath } from '../features/monitors/paths.ts';
import { initialFormValues, isFormValues, withConnection } from '../features/monitors/monitor-form.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { stringifyQuery } from '../lib/query-string.ts';
import { useRequest } from '../lib/use-request.ts';
import { useUserInfo } from '../lib/use-user-info.ts';

interface MonitorFormPageProps {
  title: string;
  description: string;
  /** Edits this monitor; creates one when absent. */
  monitorId?: string;
  /** The spec's `redirect` of /monitor_create, carried on to the plans page. */
  redirect?: string;
  notice?: ReactNode;
  /** A connection made for this form (a pending binding claimed): the form opens with it chosen. */
  connection?: Connection | undefined;
  /** The form waits (a pending binding is being claimed). */
  waiting?: boolean;
}

/** The saved return from connecting a shop, when it is for this page; read once per visit. */
function useSavedReturn(returnTo: string) {
  const [saved] = useState(() => {
    const entry = readOAuthReturn();
    return entry && isReturnTo(entry, returnTo) ? entry : null;
  });
  useEffect(() => {
    if (saved) clearOAuthReturn();
  }, [saved]);
  return saved;
}

/**
 * /monitor_create and /monitor_edit: the catalogue, the user's plan and (to edit) the monitor, then the
 * shared form. Back from connecting a shop, the form restores the values it had with the new shop chosen.
 * Saving goes to the monitor's detail.
 */
export function MonitorFormPage({
  title,
  description,
  monitorId,
  redirect,
  notice,
  connection,
  waiting = false,
}: MonitorFormPageProps) {
  const navigate = useNavigate();
  const user = useUserInfo();
  const catalogue = useRequest('monitor-service', getMonitorService);
  const plans = useRequest('plans', getPlans);
  const existing = useRequest(monitorId ? `monitor:${monitorId}` : null, (signal) =>
    getMonitorInfo(monitorId ?? '', signal),
  );

  const returnTo = monitorId
    ? monitorEditPath(monitorId)
    : `${MONITOR_CREATE_PATH}${stringifyQuery({ redirect })}`;
  const saved = useSavedReturn(returnTo);

  const plan = plans.data?.list.find((entry) => entry.name === user?.plan) ?? null;
  // Plans only tighten the interval; if they cannot be loaded the form still works within the catalogue and
  // the server applies the plan.
  const ready =
    !waiting &&
    catalogue.data !== undefined &&
    plans.status !== 'loading' &&
    (monitorId === undefined || existing.data !== undefined);
  const limits = useMemo(
    () => (catalogue.data ? { catalogue: catalogue.data, plan, plans: plans.data?.list } : null),
    [catalogue.data, plan, plans.data],
  );
  const initialValues = useMemo(() => {
    if (!limits || !ready) return null;
    const values = isFormValues(saved?.values)
      ? saved.values
      : initialFormValues(limits, existing.data, user ?? {});
    const chosen = saved?.connection ?? connection;
    return chosen ? withConnection(values, limits.catalogue, chosen) : values;
    // The form starts once from what was loaded; later changes to the stored user do not reset it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [limits, ready, existing.data, saved, connection]);

  async function save(body: MonitorInput) {
    const result = monitorId ? await updateMonitor({ ...body, monitorId }) : await createMonitor(body);
    if (!result.ok) return result.details ?? [];
    notifications.show({
      color: 'vigil',
      title: monitorId ? 'Changes saved' : 'Monitor created',
      message: monitorId
        ? `${result.data.name} uses the new settings from its next check.`
        : `${result.data.name} is checked for the first time within a minute.`,
    });
    void navigate(monitorDetailPath(result.data.monitorId));
    return undefined;
  }

  let content: ReactNode;
  if (catalogue.status === 'failed' && !catalogue.data) {
    content = (
      <ErrorState title="The monitor settings could not be loaded" onRetry={catalogue.reload}>
        Check your connection and try again.
      </ErrorState>
    );
  } else if (monitorId && existing.status === 'failed' && !existing.data) {
    content = (
      <ErrorState title="This monitor could not be loaded" onRetry={existing.reload}>
        It may have been deleted.{' '}
        <Anchor component={Link} to="/monitor">
          Back to all monitors
        </Anchor>
      </ErrorState>
    );
  } else if (!limits || !initialValues) {
    content = <SectionSpinner label={waiting ? 'Connecting your shop' : 'Loading the form'} />;
  } else {
    content = (
      <MonitorForm
        limits={limits}
        initialValues={initialValues}
        monitor={existing.data}
        returnTo={returnTo}
        onSubmit={save}
        onCancel={() => void navigate(monitorId ? monitorDetailPath(monitorId) : '/monitor')}
        pricingPath={`/pricing${stringifyQuery({ redirect })}`}
      />
    );
  }

  return (
    <>
      <PageHeader title={title} description={description} />
      {notice}
      {content}
    </>
  );
}
