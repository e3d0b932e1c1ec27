/** A Google Ads customer id as Google shows it: `2223334444` → `222-333-4444`. */
export function formatCustomerId(customerId: string): string {
  return /^\d{10}$/.test(customerId)
    ? `${customerId.slice(0, 3)}-${customerId.slice(3, 6)}-${customerId.slice(6)}`
    : customerId;
}

/** An API enum in words: `NOT_ELIGIBLE` → `Not eligible`, `DESTINATION_NOT_WORKING` → `Destination not working`. */
export function humanise(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ').trim();
  return words ? `${words[0]!.toUpperCase()}${words.slice(1)}` : value;
}

/** `1 ad`, `2 ads`, `1 ad set`. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Badge colours of an ads status: green serving, yellow limited or under review, red refused, grey stopped. */
export type StatusTone = 'green' | 'yellow' | 'red' | 'gray';
