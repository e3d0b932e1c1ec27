import { PasswordInput, Stack } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordRules } from './password-rules.tsx';

interface NewPasswordFieldsProps {
  password: GetInputPropsReturnType;
  confirm: GetInputPropsReturnType;
  label?: string;
  confirmLabel?: string;
}

/** A new password with its rules ticked live (as the field's description, so they are read with it), and its confirmation. */
export function NewPasswordFields({
  password,
  confirm,
  label = 'Password',
  confirmLabel = 'Confirm password',
}: NewPasswordFieldsProps) {
  return (
    <Stack gap="md">
      <PasswordInput
        label={label}
        autoComplete="new-password"
        required
        description={<PasswordRules password={String(password.value ?? '')} />}
        descriptionProps={{ component: 'div', mt: 6 }}
        inputWrapperOrder={['label', 'input', 'error', 'description']}
        {...password}
      />
      <PasswordInput label={confirmLabel} autoComplete="new-password" required {...confirm} />
    </Stack>
  );
}
