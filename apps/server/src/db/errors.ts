/** True when the error (or what drizzle wrapped) is PostgreSQL's unique_violation, on pg and PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Object; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
