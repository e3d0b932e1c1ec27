/**
 * Whose account an ads call reads: the edited monitor's (the spec's `monitor_id`), or a connection chosen in
 * the form of a monitor being created (or moved to another account).
 */
export type AdsSource = { monitorId: string } | { connectionId: string };

export function sourceParams(source: AdsSource): Record<string, string> {
  return 'monitorId' in source ? { monitor_id: source.monitorId } : { connectionId: source.connectionId };
}
