import { Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UserInfo } from '@vigil/contracts';
import { updateUserInfo } from '../api/update-user-info.ts';
import { contactValuesOf, type ContactValues } from '../contact-details.ts';
import { ContactFields } from './contact-fields.tsx';
import { useContactForm } from './use-contact-form.ts';

export function UserInfoForm({ user, onSaved }: { user: UserInfo; onSaved: (user: UserInfo) => void }) {
  const { form, submitting, submit } = useContactForm(user, updateUserInfo);

  async function save(values: ContactValues) {
    const saved = await submit(values);
    if (!saved) return;
    onSaved(saved);
    form.setInitialValues(contactValuesOf(saved));
    form.setValues(contactValuesOf(saved));
    notifications.show({ title: 'Saved', message: 'Your contact details are up to date.', color: 'vigil' });
  }

  return (
    <form onSubmit={form.onSubmit((values) => void save(values))} noValidate aria-label="Contact details">
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
