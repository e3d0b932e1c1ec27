import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { UserInfo } from '@vigil/contracts';
import { submitOnboarding } from '../api/submit-onboarding.ts';
import { checkContact, contactValuesOf, type ContactValues } from '../contact-details.ts';
import { ContactFields } from './contact-fields.tsx';

export function OnboardingForm({
  user,
  onDone,
}: {
  user: UserInfo | null;
  onDone: (user: UserInfo) => void;
}) {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<ContactValues>({
    mode: 'controlled',
    initialValues: contactValuesOf(user),
    validate: (values) => checkContact(values).errors,
  });

  async function submit(values: ContactValues) {
    const { body } = checkContact(values);
    if (!body) return;
    setSubmitting(true);
    const result = await submitOnboarding(body);
    setSubmitting(false);
    if (result.ok) onDone(result.data);
  }

  return (
    <form
      onSubmit={form.onSubmit((values) => void submit(values))}
      noValidate
      aria-label="Your business and contacts"
    >
      <Stack gap="lg">
        <ContactFields form={form} />
        <Button type="submit" loading={submitting} fullWidth>
          Continue
        </Button>
      </Stack>
    </form>
  );
}
