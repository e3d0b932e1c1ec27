import { useLayoutEffect, useRef, useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Session } from '@vigil/contracts';
import { login } from '../api/login.ts';
import {
  PRERENDERED_SUBMIT,
  prerenderedValue,
  takeOverPrerenderedInputs,
  usePrerendering,
} from '../../../lib/prerendered.ts';
import { emailError } from '../validation.ts';

interface LoginFormProps {
  defaultEmail?: string;
  onSignedIn: (session: Session) => void;
  onForgotPassword: (email: string) => void;
}

export function LoginForm({ defaultEmail = '', onSignedIn, onForgotPassword }: LoginFormProps) {
  const [submitting, setSubmitting] = useState(false);
  const prerendering = usePrerendering();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({
    mode: 'controlled',
    // On a login page the server sent already rendered, what was typed before the scripts ran is kept.
    initialValues: {
      email: defaultEmail || (prerenderedValue('email') ?? ''),
      password: prerenderedValue('password') ?? '',
    },
    validate: {
      email: emailError,
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });

  const { setFieldValue } = form;
  useLayoutEffect(() => {
    takeOverPrerenderedInputs(formRef.current, (name, value) => {
      if (name === 'email' || name === 'password') setFieldValue(name, value);
    });
  }, [setFieldValue]);

  async function submit(values: typeof form.values) {
    setSubmitting(true);
    // A wrong password is a 400: the client shows the server's message in the Error toast.
    const result = await login({ email: values.email.trim(), password: values.password });
    setSubmitting(false);
    if (result.ok) onSignedIn(result.data);
    else form.setFieldValue('password', '');
  }

  return (
    <form
      ref={formRef}
      onSubmit={form.onSubmit((values) => void submit(values))}
      noValidate
      aria-label="Sign in"
    >
      <Stack gap="md">
        <TextInput
          label="Email"
          name="email"
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
            name="password"
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
        {/* Prerendered, the button submits nothing (a native submission would put the password in the URL):
            a press is kept and made once the form is live (lib/prerendered.ts). */}
        <Button
          type={prerendering ? 'button' : 'submit'}
          {...(prerendering ? { [PRERENDERED_SUBMIT]: true } : {})}
          loading={submitting}
          fullWidth
        >
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
