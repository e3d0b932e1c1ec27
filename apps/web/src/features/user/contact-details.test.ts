import { describe, expect, it } from 'vitest';
import {
  CONTACT_REQUIRED_MESSAGE,
  checkContact,
  contactValuesOf,
  type ContactValues,
} from './contact-details.ts';

const base: ContactValues = { industry: 'Pets', phoneCountry: 'us', phoneNational: '', contactEmail: '' };

describe('checkContact', () => {
  it('needs an industry from the list', () => {
    expect(checkContact({ ...base, industry: '', contactEmail: 'a@shop.com' }).errors.industry).toBeDefined();
    expect(
      checkContact({ ...base, industry: 'Crypto', contactEmail: 'a@shop.com' }).errors.industry,
    ).toBeDefined();
  });

  it('needs a phone or an email, with the contracts message', () => {
    const { errors, body } = checkContact(base);
    expect(body).toBeNull();
    expect(errors.contactEmail).toBe(CONTACT_REQUIRED_MESSAGE);
  });

  it('stores the phone as E.164', () => {
    expect(checkContact({ ...base, phoneCountry: 'gb', phoneNational: '07400 123456' }).body).toEqual({
      industry: 'Pets',
      telPhone: '+447400123456',
      contactEmail: null,
    });
  });

  it('rejects a number that is not one of the country', () => {
    const { errors } = checkContact({
      ...base,
      phoneCountry: 'us',
      phoneNational: '12',
      contactEmail: 'a@shop.com',
    });
    expect(errors.phoneNational).toMatch(/United States/);
  });

  it('normalises the email and accepts it alone', () => {
    expect(checkContact({ ...base, contactEmail: ' Owner@Shop.com ' }).body).toEqual({
      industry: 'Pets',
      telPhone: null,
      contactEmail: 'owner@shop.com',
    });
  });

  it('reports a malformed email rather than the missing-contact message', () => {
    expect(checkContact({ ...base, contactEmail: 'not-an-email' }).errors.contactEmail).not.toBe(
      CONTACT_REQUIRED_MESSAGE,
    );
  });
});

describe('contactValuesOf', () => {
  it('splits a stored number back into country and national number', () => {
    expect(contactValuesOf({ industry: 'Pets', telPhone: '+33612345678', contactEmail: null })).toEqual({
      industry: 'Pets',
      phoneCountry: 'fr',
      phoneNational: '612345678',
      contactEmail: '',
    });
  });

  it('starts a new number in the US', () => {
    expect(contactValuesOf(null).phoneCountry).toBe('us');
  });
});
