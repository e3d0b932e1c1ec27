/**
 * The slot after `slot`. Slots stay on the grid `first + k × interval`, so lateness never accumulates. When
 * the schedule fell behind by more than one interval (the workers were down), the slots in between are
 * skipped: the next one is the latest slot that is already due, so the monitor is checked once right away
 * and then on its grid again, instead of in a burst of catch-up checks.
 */
export function nextSlot(slot: Date, intervalSeconds: number, now: Date): Date {
  const interval = intervalSeconds * 1000;
  const next = slot.getTime() + interval;
  if (next + interval > now.getTime()) return new Date(next);
  const behind = Math.floor((now.getTime() - slot.getTime()) / interval);
  return new Date(slot.getTime() + behind * interval);
}

/**
 * The slot after `slot` on a grid shared by a group of monitors: multiples of the interval since the epoch,
 * shifted by `offsetMs` (under one interval). A slot off the grid (the first check, a Check now) moves onto it;
 * falling behind skips to the latest due slot.
 */
export function nextAlignedSlot(slot: Date, intervalSeconds: number, now: Date, offsetMs = 0): Date {
  const interval = intervalSeconds * 1000;
  const onGrid = (time: number) => Math.floor((time - offsetMs) / interval);
  const next = (onGrid(slot.getTime()) + 1) * interval + offsetMs;
  if (next + interval > now.getTime()) return new Date(next);
  return new Date(onGrid(now.getTime()) * interval + offsetMs);
}

/** Where a group's grid starts within the interval: a stable hash of its name (FNV-1a), in whole ms. */
export function groupOffsetMs(group: string, intervalSeconds: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < group.length; i++) {
    hash ^= group.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % (intervalSeconds * 1000);
}
