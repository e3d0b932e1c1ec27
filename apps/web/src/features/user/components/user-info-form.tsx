import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { UserInfo } from '@vigil/contracts';
import { updateUserInfo } from '../api/update-user-info.ts';
import { checkContact, contactValuesOf, type ContactValues } from '../contact-details.ts';
import { ContactFields } from './contact-fields.tsx';

export function UserInfoForm({ user, onSaved }: { user: UserInfo; onSaved: (user: UserInfo) => void }) {
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
    const result = await updateUserInfo(body);
    setSubmitting(false);
    if (!result.ok) return;
    onSaved(result.data);
    form.setInitialValues(contactValuesOf(result.data));
    form.setValues(contactValuesOf(result.data));
    notifications.show({ title: 'Saved', message: 'Your contact details are up to date.', color: 'vigil' });
  }

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate aria-label="Contact details">
      <Stack gap="lg" maw={560}>
        <ContactFields form={form} />
        <Group>
          <Button type="submit" loading={submitting} disabled={!form.isDirty()}>
            Save changes
          </Button>
          {form.isDirty() ? (
            <Button variant="subtle" color="gray" onClick={() => form.reset()} disabled={submitting}>
              Discard changes
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
