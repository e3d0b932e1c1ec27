import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { resetCodeProblem } from '@vigil/contracts';
import { IconMail } from '../../../components/icons.tsx';
import { forgetPassword } from '../api/forget-password.ts';
import { verifyPassword } from '../api/verify-password.ts';
import { confirmError, emailError, newPasswordError } from '../validation.ts';
import { NewPasswordFields } from './new-password-fields.tsx';

export type ForgotStep = 'request' | 'verify';

interface ForgotPasswordProps {
  step: ForgotStep;
  onStepChange: (step: ForgotStep) => void;
  initialEmail: string;
  initialCode?: string;
  /** Called with the email once the new password is set. */
  onDone: (email: string) => void;
  onCancel: () => void;
}

/** Forgotten password: ask for a 6-digit code by email, then set a new password with it. */
export function ForgotPassword({
  step,
  onStepChange,
  initialEmail,
  initialCode = '',
  onDone,
  onCancel,
}: ForgotPasswordProps) {
  const [email, setEmail] = useState(initialEmail);
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  return step === 'request' ? (
    <RequestCode
      email={email}
      onSent={(address, message) => {
        setEmail(address);
        setSentMessage(message);
        onStepChange('verify');
      }}
      onCancel={onCancel}
    />
  ) : (
    <SetNewPassword
      email={email}
      initialCode={initialCode}
      sentMessage={sentMessage}
      onResend={() => onStepChange('request')}
      onDone={onDone}
      onCancel={onCancel}
    />
  );
}

function RequestCode({
  email,
  onSent,
  onCancel,
}: {
  email: string;
  onSent: (email: string, message: string) => void;
  onCancel: () => void;
}) {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { email }, validate: { email: emailError } });

  async function submit({ email: typed }: { email: string }) {
    setSubmitting(true);
    const address = typed.trim().toLowerCase();
    const result = await forgetPassword(address);
    setSubmitting(false);
    if (result.ok) onSent(address, result.data.message);
  }

  return (
    <form
      onSubmit={form.onSubmit((values) => void submit(values))}
      noValidate
      aria-label="Request a reset code"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Enter the email you signed up with. We will send you a 6-digit code to set a new password.
        </Text>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={submitting} fullWidth>
          Send code
        </Button>
        <Group justify="center">
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

function SetNewPassword({
  email,
  initialCode,
  sentMessage,
  onResend,
  onDone,
  onCancel,
}: {
  email: string;
  initialCode: string;
  sentMessage: string | null;
  onResend: () => void;
  onDone: (email: string) => void;
  onCancel: () => void;
}) {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email, code: initialCode, password: '', confirm: '' },
    validate: {
      email: emailError,
      code: resetCodeProblem,
      password: newPasswordError,
      confirm: (value, values) => confirmError(value, values.password),
    },
  });

  async function submit(values: typeof form.values) {
    setSubmitting(true);
    const address = values.email.trim().toLowerCase();
    const result = await verifyPassword({
      email: address,
      code: values.code.trim(),
      password: values.password,
    });
    setSubmitting(false);
    if (result.ok) onDone(address);
  }

  return (
    <form
      onSubmit={form.onSubmit((values) => void submit(values))}
      noValidate
      aria-label="Set a new password"
    >
      <Stack gap="md">
        <Alert variant="light" icon={<IconMail />} title="Check your email">
          {sentMessage ?? 'Enter the 6-digit code we emailed you, and choose a new password.'}
        </Alert>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <TextInput
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
          required
          data-autofocus
          styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
          {...form.getInputProps('code')}
        />
        <NewPasswordFields
          label="New password"
          confirmLabel="Confirm new password"
          password={form.getInputProps('password')}
          confirm={form.getInputProps('confirm')}
        />
        <Button type="submit" loading={submitting} fullWidth>
          Set new password
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onResend}>
            Send a new code
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
