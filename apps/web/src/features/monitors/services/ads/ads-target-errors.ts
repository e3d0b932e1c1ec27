import type { FormErrors } from '../../form-numbers.ts';

/**
 * Adds the target schema's messages to the form fields (`fieldOf` maps a server path to the form's) that have
 * no error yet. The ad account's field (`accountField`) stays quiet while no connection is chosen: its message
 * would only repeat that one.
 */
export function addTargetIssues(
  errors: FormErrors,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  fieldOf: (path: string) => string,
  accountField: string,
): void {
  for (const issue of issues) {
    const field = fieldOf(['target', ...issue.path.slice(0, 1).map(String)].join('.'));
    if (!(field in errors) && !(field === accountField && 'target.connectionId' in errors)) {
      errors[field] = issue.message;
    }
  }
}
