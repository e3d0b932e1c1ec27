import { useState } from 'react';
import { useForm } from '@mantine/form';
import type { UserInfo } from '@vigil/contracts';
import type { ApiResult } from '../../../lib/api-client.ts';
import { checkContact, contactValuesOf, type ContactBody, type ContactValues } from '../contact-details.ts';

/**
 * The contact form of onboarding and settings: values from the stored user, the shared checks, and a submit
 * that sends the checked body and resolves with the user the server answered (null when it refused).
 */
export function useContactForm(
  user: UserInfo | null,
  send: (body: ContactBody) => Promise<ApiResult<UserInfo>>,
) {
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<ContactValues>({
    mode: 'controlled',
    initialValues: contactValuesOf(user),
    validate: (values) => checkContact(values).errors,
  });

  async function submit(values: ContactValues): Promise<UserInfo | null> {
    const { body } = checkContact(values);
    if (!body) return null;
    setSubmitting(true);
    const result = await send(body);
    setSubmitting(false);
    return result.ok ? result.data : null;
  }

  return { form, submitting, submit };
}
