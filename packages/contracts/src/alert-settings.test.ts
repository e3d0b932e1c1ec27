import { describe, expect, it } from 'vitest';
import { isAlertSettingsValid, isEmailShape } from './alert-settings.ts';

const call = { checked: true, name: 'Ana', isAgree: true, phone: '+12015550123', language: 'en-US' };
const sms = { checked: true, name: 'Ana', isAgree: true, phone: '+12015550123' };
const email = { checked: true, name: 'Ana', isAgree: false, email: 'ana@shop.com' };

describe('isAlertSettingsValid()', () => {
  it('accepts settings with no channel ticked, whatever the other fields hold', () => {
    expect(isAlertSettingsValid({})).toBe(true);
    expect(
      isAlertSettingsValid({
        callSettings: { checked: false, isAgree: false, phone: '' },
        emailSettings: { checked: false, isAgree: false, email: 'not an email' },
      }),
    ).toBe(true);
  });

  it('accepts ticked channels that are complete', () => {
    expect(isAlertSettingsValid({ callSettings: call, smsSettings: sms, emailSettings: email })).toBe(true);
  });

  it('refuses a ticked call or SMS channel without consent, but not email', () => {
    expect(isAlertSettingsValid({ callSettings: { ...call, isAgree: false } })).toBe(false);
    expect(isAlertSettingsValid({ smsSettings: { ...sms, isAgree: false } })).toBe(false);
    expect(isAlertSettingsValid({ emailSettings: { ...email, isAgree: false } })).toBe(true);
  });

  it('refuses an empty, null or undefined field of a ticked channel, except name', () => {
    expect(isAlertSettingsValid({ smsSettings: { ...sms, phone: '' } })).toBe(false);
    expect(isAlertSettingsValid({ smsSettings: { ...sms, phone: null } })).toBe(false);
    expect(isAlertSettingsValid({ callSettings: { ...call, language: undefined } })).toBe(false);
    expect(isAlertSettingsValid({ smsSettings: { ...sms, name: '' } })).toBe(true);
    expect(isAlertSettingsValid({ emailSettings: { ...email, name: null } })).toBe(true);
  });

  it('ignores incomplete channels that are not ticked', () => {
    expect(
      isAlertSettingsValid({
        emailSettings: email,
        smsSettings: { checked: false, isAgree: false, phone: '' },
      }),
    ).toBe(true);
  });

  it('refuses a ticked email channel whose address is not of the form {email}', () => {
    for (const address of [
      'ana@shop',
      'ana@@shop.com',
      'ana shop@x.com',
      'ana@shop.c',
      'ana@',
      '',
      'a@b@c.com',
    ]) {
      expect(isAlertSettingsValid({ emailSettings: { ...email, email: address } }), address).toBe(false);
    }
  });
});

describe('isEmailShape()', () => {
  it('wants no whitespace, exactly one @ and a top-level part of at least two characters', () => {
    expect(isEmailShape('ana@shop.co')).toBe(true);
    expect(isEmailShape('ana.b+alerts@mail.shop.store')).toBe(true);
    expect(isEmailShape('ana@shop.c')).toBe(false);
    expect(isEmailShape(' ana@shop.com')).toBe(false);
    expect(isEmailShape('anashop.com')).toBe(false);
  });
});
