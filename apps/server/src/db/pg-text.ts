/** A parameter in PostgreSQL's text form, as node-postgres sends it (an array as an array literal). */
export function pgText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return pgArray(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A PostgreSQL array literal, sent as one text parameter and cast in the statement: each element quoted
 * (backslashes and quotes escaped), null as NULL, an inner array as an inner literal.
 */
export function pgArray(values: readonly unknown[]): string {
  const elements = values.map((value) => {
    if (Array.isArray(value)) return pgArray(value);
    const text = pgText(value);
    return text === null ? 'NULL' : `"${text.replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${elements.join(',')}}`;
}
