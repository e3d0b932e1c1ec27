import { formatCount } from '../../lib/format-time.ts';

/** Field errors keyed by the form's paths (`name`, `target.url`, `conditions.timeout.timeoutMs`, …). */
export type FormErrors = Record<string, string>;

export interface NumberBounds {
  min?: number | undefined;
  max?: number | undefined;
}

/** A number from a field that may hold a typed string ('' while empty). */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export function inBounds(value: number | null, bounds: NumberBounds): number | null {
  if (value === null || !Number.isInteger(value)) return null;
  if (bounds.min !== undefined && value < bounds.min) return null;
  if (bounds.max !== undefined && value > bounds.max) return null;
  return value;
}

/** A whole number within the bounds, or null with the field's error set. */
export function checkBounds(
  errors: FormErrors,
  field: string,
  value: unknown,
  bounds: NumberBounds,
  unit = '',
): number | null {
  const within = inBounds(toNumber(value), bounds);
  if (within !== null) return within;
  const suffix = unit ? ` ${unit}` : '';
  errors[field] =
    bounds.min !== undefined && bounds.max !== undefined
      ? `Enter a whole number from ${formatCount(bounds.min)} to ${formatCount(bounds.max)}${suffix}.`
      : 'Enter a whole number.';
  return null;
}
