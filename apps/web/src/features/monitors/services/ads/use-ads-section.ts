import type { Connection, Provider } from '@vigil/contracts';
import { useRequest } from '../../../../lib/use-request.ts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getConnections } from '../../api/get-connections.ts';
import { SERVICE_OF_PROVIDER } from '../../connect/connection-format.ts';
import type { ServiceSectionProps } from '../types.ts';

/** What every ads monitor's target holds beside its provider's own choice. */
interface AdsTargetValues {
  connectionId: string;
  linkedMonitorId: string | null;
}

/**
 * The state an ads monitor's section (Google Ads, Meta ads) builds on: its target and errors as the form
 * holds them, the one connection chosen and whose account the pickers read through, and the props of the
 * connection step and of the linked shop field.
 */
export function useAdsSection<T extends AdsTargetValues>(
  provider: Provider,
  { form, monitorId, savedTarget, connect }: ServiceSectionProps,
) {
  const target = form.getValues().target as T;
  const { conditions } = form.getValues();
  const connections = useRequest(`connections:${provider}`, (signal) => getConnections(provider, signal));
  // The edited monitor's own account: it lists and reconnects through the monitor (the spec's calls).
  const savedConnectionId = (savedTarget as T | undefined)?.connectionId;
  const errors = form.errors as Record<string, string | undefined>;

  /** Changes the target and clears the errors of the fields the change answers. */
  function update(change: Partial<T>, clear: string[]) {
    form.setFieldValue('target', { ...target, ...change });
    for (const field of clear) form.clearFieldError(field);
  }

  const reconnectMonitorId = (connection: Connection) =>
    monitorId && connection.connectionId === savedConnectionId ? monitorId : undefined;

  const chosen = connections.data?.list.find((entry) => entry.connectionId === target.connectionId);
  const source: AdsSource | null = !chosen
    ? null
    : monitorId && chosen.connectionId === savedConnectionId
      ? { monitorId }
      : { connectionId: chosen.connectionId };

  const connectionStep = {
    provider,
    service: SERVICE_OF_PROVIDER[provider],
    connections,
    onRetry: connections.reload,
    value: target.connectionId,
    error: errors['target.connectionId'],
    connect,
    reconnectMonitorId,
  };

  const linkedShop = {
    value: target.linkedMonitorId,
    onChange: (linkedMonitorId: string | null) =>
      update({ linkedMonitorId } as Partial<T>, ['target.linkedMonitorId']),
    error: errors['target.linkedMonitorId'],
    monitorId,
    conditionOn: conditions.shop_cannot_sell?.enabled ?? false,
  };

  return { target, errors, update, chosen, source, connectionStep, linkedShop };
}
