import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Session } from '@vigil/contracts';
import { login } from '../api/login.ts';
import { emailError } from '../validation.ts';

interface LoginFormProps {
  defaultEmail?: string;
  onSignedIn: (session: Session) => void;
  onForgotPassword: (email: string) => void;
}

export function LoginForm({ defaultEmail = '', onSignedIn, onForgotPassword }: LoginFormProps) {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: defaultEmail, password: '' },
    validate: {
      email: emailError,
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });

  async function submit(values: typeof form.values) {
    setSubmitting(true);
    // A wrong password is a 400: the client shows the server's message in the Error toast.
    const result = await login({ email: values.email.trim(), password: values.password });
    setSubmitting(false);
    if (result.ok) onSignedIn(result.data);
    else form.setFieldValue('password', '');
  }

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate aria-label="Sign in">
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
        <Stack gap={6}>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => onForgotPassword(form.values.email)}
            >
              Forgot password?
            </Anchor>
          </Group>
        </Stack>
        <Button type="submit" loading={submitting} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
