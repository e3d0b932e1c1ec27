import { INDUSTRIES, readEmail, type PhoneCountry, type UserInfo } from '@vigil/contracts';
import {
  DEFAULT_PHONE_COUNTRY,
  phoneErrorMessage,
  phoneValueFromE164,
  phoneValueToE164,
} from '../../components/phone-input.tsx';

/** The contact details form, as typed: the phone as a country and a national number. */
export interface ContactValues {
  industry: string;
  phoneCountry: PhoneCountry;
  phoneNational: string;
  contactEmail: string;
}

export interface ContactBody {
  industry: string;
  telPhone: string | null;
  contactEmail: string | null;
}

/** The contracts' message, so the form and the server say the same thing. */
export const CONTACT_REQUIRED_MESSAGE =
  'Give a contact phone number or a contact email, so we can reach you when something breaks.';

export function contactValuesOf(
  user: Pick<UserInfo, 'industry' | 'telPhone' | 'contactEmail'> | null,
): ContactValues {
  const phone = phoneValueFromE164(user?.telPhone);
  return {
    industry: user?.industry ?? '',
    phoneCountry: phone.country ?? DEFAULT_PHONE_COUNTRY,
    phoneNational: phone.national,
    contactEmail: user?.contactEmail ?? '',
  };
}

type ContactErrors = Partial<Record<keyof ContactValues, string>>;

/** Checks the form and builds the request body: industry required, and a phone and/or an email, each valid. */
export function checkContact(values: ContactValues): { errors: ContactErrors; body: ContactBody | null } {
  const errors: ContactErrors = {};
  if (!(INDUSTRIES as readonly string[]).includes(values.industry)) {
    errors.industry = 'Choose your industry from the list.';
  }
  const telPhone = phoneValueToE164({ country: values.phoneCountry, national: values.phoneNational });
  if (telPhone === 'invalid') errors.phoneNational = phoneErrorMessage(values.phoneCountry);

  let contactEmail: string | null = null;
  if (values.contactEmail.trim()) {
    const read = readEmail(values.contactEmail);
    if (read.ok) contactEmail = read.address;
    else errors.contactEmail = read.message;
  }
  if (telPhone === null && contactEmail === null && !errors.contactEmail) {
    errors.contactEmail = CONTACT_REQUIRED_MESSAGE;
  }
  if (Object.keys(errors).length > 0) return { errors, body: null };
  return { errors, body: { industry: values.industry, telPhone: telPhone as string | null, contactEmail } };
}
