import { Button, Stack } from '@mantine/core';
import type { UserInfo } from '@vigil/contracts';
import { submitOnboarding } from '../api/submit-onboarding.ts';
import { ContactFields } from './contact-fields.tsx';
import { useContactForm } from './use-contact-form.ts';

export function OnboardingForm({
  user,
  onDone,
}: {
  user: UserInfo | null;
  onDone: (user: UserInfo) => void;
}) {
  const { form, submitting, submit } = useContactForm(user, submitOnboarding);

  return (
    <form
      onSubmit={form.onSubmit((values) => void submit(values).then((saved) => saved && onDone(saved)))}
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
