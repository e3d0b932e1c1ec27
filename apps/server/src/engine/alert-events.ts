import type { Repositories } from '../db/store.ts';

/** The spec's email group, as the monitor stores it. */
interface EmailSettings {
  checked?: boolean;
  email?: string;
}

export const UNVERIFIED_EMAIL =
  'This email address is not verified, so no alert goes to it. Verify it on the monitor’s page to receive alerts.';

/**
 * Records one incident event's deliveries: one per enabled channel and recipient (email for now). An
 * address the user has not verified gets a 'skipped' delivery saying so, so the alerts page shows why
 * nothing arrived. Returns the ids of the deliveries to hand to the job engine after the commit.
 */
export async function recordEventDeliveries(
  tx: Repositories,
  event: { incidentId: string; event: string; userId: string; alertSettings: unknown; now: Date },
): Promise<string[]> {
  const email = (event.alertSettings as { emailSettings?: EmailSettings } | null)?.emailSettings;
  const address = email?.checked ? email.email?.trim().toLowerCase() : undefined;
  if (!address) return [];
  const verified = await tx.alerting.verifiedAddresses(event.userId, 'email', [address]);
  return tx.alerting.insertDeliveries(
    [
      {
        incidentId: event.incidentId,
        event: event.event,
        channel: 'email',
        recipient: address,
        status: verified.has(address) ? 'pending' : 'skipped',
        lastError: verified.has(address) ? null : UNVERIFIED_EMAIL,
      },
    ],
    event.now,
  );
}
