import type { Delivery } from '@vigil/contracts';
import type { DeliveryRow } from './incident.repository.ts';

/** A delivery row as the API shows it: on an alert, and in its timeline. */
export function toDelivery(row: DeliveryRow): Delivery {
  return {
    event: row.event,
    channel: row.channel as Delivery['channel'],
    recipient: row.recipient,
    status: row.status as Delivery['status'],
    attempts: row.attempts,
    lastError: row.lastError,
    sentAt: row.sentAt?.toISOString() ?? null,
    fallbackFor: (row.fallbackFor as Delivery['fallbackFor']) ?? null,
  };
}
