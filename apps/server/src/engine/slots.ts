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
 * The slot after `slot` on the interval's shared grid (multiples of the interval since the epoch), for
 * services whose checker serves every monitor of one account with one provider query per interval. A slot off
 * the grid (the first check, a Check now) moves onto it; falling behind skips to the latest due slot.
 */
export function nextAlignedSlot(slot: Date, intervalSeconds: number, now: Date): Date {
  const interval = intervalSeconds * 1000;
  const next = (Math.floor(slot.getTime() / interval) + 1) * interval;
  if (next + interval > now.getTime()) return new Date(next);
  return new Date(Math.floor(now.getTime() / interval) * interval);
}
