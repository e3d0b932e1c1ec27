import { useState } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Session } from '@vigil/contracts';
import { register } from '../api/register.ts';
import { confirmError, emailError, newPasswordError } from '../validation.ts';
import { NewPasswordFields } from './new-password-fields.tsx';

export function RegisterForm({ onRegistered }: { onRegistered: (session: Session) => void }) {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '', confirm: '' },
    validate: {
      email: emailError,
      password: newPasswordError,
      confirm: (value, values) => confirmError(value, values.password),
    },
  });

  async function submit(values: typeof form.values) {
    setSubmitting(true);
    const result = await register({ email: values.email.trim().toLowerCase(), password: values.password });
    setSubmitting(false);
    if (result.ok) onRegistered(result.data);
  }

  return (
    <form
      onSubmit={form.onSubmit((values) => void submit(values))}
      noValidate
      aria-label="Create your account"
    >
      <Stack gap="md">
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@yourshop.com"
          required
          data-autofocus
          {...form.getInputProps('email')}
        />
        <NewPasswordFields
          password={form.getInputProps('password')}
          confirm={form.getInputProps('confirm')}
        />
        <Button type="submit" loading={submitting} fullWidth>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
