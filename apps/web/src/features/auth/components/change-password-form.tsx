import { useState } from 'react';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { changePassword } from '../api/change-password.ts';
import { confirmError, newPasswordError } from '../validation.ts';
import { NewPasswordFields } from './new-password-fields.tsx';

export function ChangePasswordForm() {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { oldPassword: '', newPassword: '', confirm: '' },
    validate: {
      oldPassword: (value) => (value ? null : 'Enter your current password.'),
      newPassword: (value, values) =>
        newPasswordError(value) ??
        (value === values.oldPassword ? 'Choose a password different from the current one.' : null),
      confirm: (value, values) => confirmError(value, values.newPassword),
    },
  });

  async function submit(values: typeof form.values) {
    setSubmitting(true);
    const result = await changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword });
    setSubmitting(false);
    if (!result.ok) return;
    form.reset();
    notifications.show({
      title: 'Password changed',
      message: result.data.message || 'Your other devices were signed out.',
      color: 'vigil',
    });
  }

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate aria-label="Change password">
      <Stack gap="md" maw={420}>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          {...form.getInputProps('oldPassword')}
        />
        <NewPasswordFields
          label="New password"
          confirmLabel="Confirm new password"
          password={form.getInputProps('newPassword')}
          confirm={form.getInputProps('confirm')}
        />
        <Group>
          <Button type="submit" loading={submitting}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
