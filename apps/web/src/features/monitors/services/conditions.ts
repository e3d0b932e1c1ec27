import type { ServiceDefinition } from '@vigil/contracts';
import { checkBounds, inBounds, toNumber, type FormErrors } from '../form-numbers.ts';
import type { ConditionValue } from './types.ts';

/** The catalogue's conditions of a service, each with its default state and parameters. */
export function defaultConditions(service: ServiceDefinition | undefined): Record<string, ConditionValue> {
  const conditions: Record<string, ConditionValue> = {};
  for (const definition of service?.conditions ?? []) {
    const value: ConditionValue = { enabled: definition.enabledByDefault };
    for (const param of definition.params) value[param.key] = param.default;
    conditions[definition.key] = value;
  }
  return conditions;
}

/** The catalogue's defaults, overlaid with what a monitor holds. */
export function conditionsOf(
  service: ServiceDefinition | undefined,
  held: Record<string, object> | undefined,
): Record<string, ConditionValue> {
  const conditions = defaultConditions(service);
  for (const [key, value] of Object.entries(held ?? {})) {
    conditions[key] = { ...conditions[key], ...(value as ConditionValue) };
  }
  return conditions;
}

/**
 * Reads every condition of the catalogue within its bounds. A parameter of a check that is on must be within
 * the catalogue's bounds; one that is off keeps a value the server accepts (its own when within bounds, else
 * the default). At least one check must be on.
 */
export function checkConditions(
  errors: FormErrors,
  service: ServiceDefinition,
  values: Record<string, ConditionValue>,
): Record<string, ConditionValue> {
  const conditions: Record<string, ConditionValue> = {};
  let enabledCount = 0;
  for (const definition of service.conditions) {
    const current = values[definition.key] ?? { enabled: false };
    const condition: ConditionValue = { enabled: current.enabled };
    if (current.enabled) enabledCount += 1;
    for (const param of definition.params) {
      const field = `conditions.${definition.key}.${param.key}`;
      const raw = current[param.key] ?? param.default;
      if (param.type === 'number') {
        const number = current.enabled
          ? checkBounds(errors, field, raw, param, param.unit)
          : inBounds(toNumber(raw), param);
        condition[param.key] = number ?? (typeof param.default === 'number' ? param.default : 0);
      } else {
        condition[param.key] = String(raw).trim();
      }
    }
    conditions[definition.key] = condition;
  }
  if (enabledCount === 0) errors.conditions = 'Turn on at least one check.';
  return conditions;
}

/** The part of a contracts (zod) schema used here; apps/web does not depend on zod itself. */
interface ConditionsSchema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * Parses the conditions with the service's contracts schema, adding its messages (the keyword check's, say)
 * to fields that have no error yet.
 */
export function parseConditions<T>(
  errors: FormErrors,
  schema: ConditionsSchema<T>,
  conditions: Record<string, ConditionValue>,
): T | null {
  const parsed = schema.safeParse(conditions);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const field = ['conditions', ...issue.path.map(String)].join('.');
    if (!Object.keys(errors).some((key) => key.startsWith(field))) errors[field] = issue.message;
  }
  return null;
}
