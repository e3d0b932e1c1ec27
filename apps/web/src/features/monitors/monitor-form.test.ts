import { describe, expect, it } from 'vitest';
import { PHONE_NUMBER_MESSAGE, type MonitorInput } from '@vigil/contracts';
import {
  aMonitor,
  allPlans,
  catalogue,
  freePlan,
  proPlan,
  starterPlan,
} from '../../test/monitor-fixtures.ts';
import {
  ALERT_SETTINGS_MESSAGE,
  channelOffer,
  checkMonitorForm,
  initialFormValues,
  intervalHint,
  intervalOptions,
  languageOptions,
  type MonitorFormValues,
} from './monitor-form.ts';

const free = { catalogue, plan: freePlan, plans: allPlans };
const pro = { catalogue, plan: proPlan, plans: allPlans };

function filled(change: (values: MonitorFormValues) => void = () => {}): MonitorFormValues {
  const values = initialFormValues(free);
  values.name = 'Storefront';
  values.target = { url: 'https://shop.example.com' };
  values.email = { checked: true, name: 'Ana', email: 'ana@shop.com' };
  change(values);
  return values;
}

/** The website conditions of a body, which must be a website monitor's. */
function websiteConditionsOf(body: MonitorInput | null) {
  if (body?.service !== 'website') throw new Error(`expected a website body, got ${body?.service}`);
  return body.conditions;
}

describe('checkMonitorForm()', () => {
  it('builds the contracts body from a filled form', () => {
    const { errors, body } = checkMonitorForm(filled(), free);
    expect(errors).toEqual({});
    expect(body).toMatchObject({
      name: 'Storefront',
      service: 'website',
      target: { url: 'https://shop.example.com' },
      intervalSeconds: 300,
      repeatIntervalMinutes: 30,
      confirmations: 2,
      languageCode: 'en-US',
      emailSettings: { checked: true, name: 'Ana', email: 'ana@shop.com' },
      smsSettings: { checked: false, phone: '' },
      callSettings: { checked: false, phone: '' },
    });
    expect(websiteConditionsOf(body).timeout).toEqual({ enabled: true, timeoutMs: 10_000 });
    expect(websiteConditionsOf(body).keyword).toEqual({ enabled: false, keyword: '', mode: 'missing' });
  });

  it('accepts a monitor with no alert channel ticked (the spec: valid if none is ticked)', () => {
    const { errors, body } = checkMonitorForm(
      filled((v) => (v.email.checked = false)),
      free,
    );
    expect(errors).toEqual({});
    expect(body?.emailSettings.checked).toBe(false);
  });

  it.each([
    ['a top-level part of one character', 'ana@shop.c'],
    ['two @', 'ana@@shop.com'],
    ['whitespace', 'ana @shop.com'],
    ['nothing', ''],
  ])('refuses a ticked email channel with %s', (_, email) => {
    const { errors, body } = checkMonitorForm(
      filled((v) => (v.email.email = email)),
      free,
    );
    expect(body).toBeNull();
    expect(errors['email.email']).toMatch(/email/i);
  });

  it('asks to verify a ticked email the user has not proved, once the verified list is known', () => {
    const values = filled((v) => (v.email.email = 'Ops@Shop.com'));
    const unknown = checkMonitorForm(values, { ...free, verifiedContacts: ['ana@shop.com'] });
    expect(unknown.body).toBeNull();
    expect(unknown.errors['email.email']).toBe('Verify Ops@Shop.com first: send a code and enter it.');
    expect(checkMonitorForm(values, { ...free, verifiedContacts: ['ops@shop.com'] }).body).not.toBeNull();
    // Not known (the list failed to load): the server decides.
    expect(checkMonitorForm(values, free).body).not.toBeNull();
  });

  it('ignores the address of an unticked email channel', () => {
    const { body } = checkMonitorForm(
      filled((v) => (v.email = { checked: false, name: '', email: 'not an email' })),
      free,
    );
    expect(body).not.toBeNull();
  });

  it('refuses a ticked phone channel without consent, per the spec rule', () => {
    const values = filled((v) => {
      v.sms = { checked: true, name: 'Ana', isAgree: false, country: 'us', national: '201 555 0123' };
    });
    const { errors, body } = checkMonitorForm(values, pro);
    expect(body).toBeNull();
    expect(errors['sms.isAgree']).toMatch(/consent/);
    expect(errors['sms.national']).toBeUndefined();
  });

  it('sends a ticked phone channel with consent as E.164', () => {
    const values = filled((v) => {
      v.sms = { checked: true, name: 'Ana', isAgree: true, country: 'gb', national: '07400 123456' };
    });
    const { errors, body } = checkMonitorForm(values, pro);
    expect(errors).toEqual({});
    expect(body?.smsSettings).toEqual({ checked: true, name: 'Ana', isAgree: true, phone: '+447400123456' });
  });

  it.each([
    ['a number too short for the country', 'us', '12'],
    ['a Canadian number under the US', 'us', '506 234 5678'],
    ['no country and no + code', null, '2015550123'],
    ['a country outside the nine', null, '+81 3 1234 5678'],
  ] as const)('refuses %s, with the contracts message', (_, country, national) => {
    const values = filled((v) => {
      v.call = { checked: true, name: '', isAgree: true, country, national };
    });
    const { errors, body } = checkMonitorForm(values, pro);
    expect(body).toBeNull();
    expect(errors['call.national']).toBe(PHONE_NUMBER_MESSAGE);
  });

  it('takes a number typed with its + code when no country is chosen', () => {
    const values = filled((v) => {
      v.call = { checked: true, name: '', isAgree: true, country: null, national: '+33 6 12 34 56 78' };
    });
    expect(checkMonitorForm(values, pro).body?.callSettings.phone).toBe('+33612345678');
  });

  it('asks to verify a ticked number, once the verified list is known; one proof serves both channels', () => {
    const values = filled((v) => {
      v.sms = { checked: true, name: '', isAgree: true, country: 'us', national: '2015550123' };
      v.call = { checked: true, name: '', isAgree: true, country: 'us', national: '2015550123' };
    });
    const unknown = checkMonitorForm(values, { ...pro, verifiedContacts: ['ana@shop.com'] });
    expect(unknown.body).toBeNull();
    expect(unknown.errors['sms.national']).toBe(
      'Verify +12015550123 first: get a code by SMS or by call and enter it.',
    );
    const proved = checkMonitorForm(values, { ...pro, verifiedContacts: ['ana@shop.com', '+12015550123'] });
    expect(proved.errors).toEqual({});
  });

  it('refuses a ticked channel the plan does not include, naming the plans that do', () => {
    const values = filled((v) => {
      v.call = { checked: true, name: '', isAgree: true, country: 'us', national: '2015550123' };
    });
    const { errors, body } = checkMonitorForm(values, { catalogue, plan: starterPlan, plans: allPlans });
    expect(body).toBeNull();
    expect(errors['call.checked']).toBe(
      'Calls come with Pro and Business. Untick it to save, or choose a plan that includes it.',
    );
  });

  it('needs the keyword when the keyword check is on, with the contracts message', () => {
    const on = filled((v) => (v.conditions.keyword = { enabled: true, keyword: '  ', mode: 'missing' }));
    const refused = checkMonitorForm(on, free);
    expect(refused.body).toBeNull();
    expect(refused.errors['conditions.keyword.keyword']).toBe(
      'Enter the keyword to look for, or turn the keyword check off.',
    );
    const given = filled(
      (v) => (v.conditions.keyword = { enabled: true, keyword: 'Add to cart', mode: 'missing' }),
    );
    expect(websiteConditionsOf(checkMonitorForm(given, free).body).keyword).toEqual({
      enabled: true,
      keyword: 'Add to cart',
      mode: 'missing',
    });
  });

  it('keeps condition parameters within the catalogue bounds', () => {
    const values = filled((v) => (v.conditions.timeout = { enabled: true, timeoutMs: 500 }));
    expect(checkMonitorForm(values, free).errors['conditions.timeout.timeoutMs']).toBe(
      'Enter a whole number from 1,000 to 30,000 ms.',
    );
    const off = filled((v) => (v.conditions.timeout = { enabled: false, timeoutMs: 500 }));
    const { errors, body } = checkMonitorForm(off, free);
    expect(errors['conditions.timeout.timeoutMs']).toBeUndefined();
    // A check that is off still sends a value the contracts accept: the catalogue's default.
    expect(websiteConditionsOf(body).timeout).toEqual({ enabled: false, timeoutMs: 10_000 });
  });

  it('needs at least one check turned on', () => {
    const values = filled((v) => {
      for (const condition of Object.values(v.conditions)) condition.enabled = false;
    });
    expect(checkMonitorForm(values, free).errors.conditions).toBe('Turn on at least one check.');
  });

  it("refuses an interval shorter than the plan's, naming the plan", () => {
    const values = filled((v) => (v.intervalSeconds = '60'));
    const { errors, body } = checkMonitorForm(values, free);
    expect(body).toBeNull();
    expect(errors.intervalSeconds).toMatch(/^Your Free plan checks at most every 5 minutes\./);
    expect(checkMonitorForm(values, { catalogue, plan: proPlan }).body?.intervalSeconds).toBe(60);
  });

  it('refuses a name or address left empty', () => {
    const values = filled((v) => {
      v.name = ' ';
      v.target = { url: 'shop.example.com' };
    });
    const { errors, body } = checkMonitorForm(values, free);
    expect(body).toBeNull();
    expect(errors.name).toBe('Give the monitor a name.');
    expect(errors['target.url']).toMatch(/http:\/\/ or https:\/\//);
  });

  it('refuses a service the catalogue lists as not available, with its reason', () => {
    const closed = {
      ...catalogue,
      list: catalogue.list.map((entry) =>
        entry.service === 'google_ads'
          ? { ...entry, available: false, unavailableReason: 'Opens with the Google Ads integration.' }
          : entry,
      ),
    };
    const values = filled((v) => (v.service = 'google_ads'));
    expect(checkMonitorForm(values, { ...free, catalogue: closed }).errors.service).toBe(
      'Opens with the Google Ads integration.',
    );
  });

  it('refuses a service the catalogue offers but this app has no module for', () => {
    const website = catalogue.list[0]!;
    // A service the server added after this app was built.
    const newer = {
      ...catalogue,
      list: [...catalogue.list, { ...website, service: 'tiktok_ads', name: 'TikTok ads' } as never],
    };
    const values = filled((v) => (v.service = 'tiktok_ads'));
    expect(checkMonitorForm(values, { ...free, catalogue: newer }).errors.service).toBe(
      'TikTok ads monitors cannot be created from this page yet.',
    );
  });

  it('reports the spec rule itself when no field explains it', () => {
    const values = filled((v) => {
      v.call = { checked: true, name: '', isAgree: true, country: 'us', national: '201 555 0123' };
    });
    values.call.national = '';
    const { errors } = checkMonitorForm(values, pro);
    expect(errors['call.national']).toBe('Enter the number to alert.');
    expect(errors.alertSettings).toBeUndefined();
    expect(ALERT_SETTINGS_MESSAGE).toMatch(/alert settings/);
  });
});

describe('channelOffer()', () => {
  it('holds the channels a plan lacks, naming the plans that have them', () => {
    expect(channelOffer(free, 'sms')).toEqual({
      included: false,
      reason: 'SMS alerts come with Starter, Pro and Business.',
    });
    expect(channelOffer(free, 'call')).toEqual({
      included: false,
      reason: 'Calls come with Pro and Business.',
    });
    expect(channelOffer({ catalogue, plan: starterPlan }, 'call')).toEqual({
      included: false,
      reason: 'Calls are not part of your Starter plan.',
    });
    expect(channelOffer(pro, 'call')).toEqual({ included: true });
    // The plan is not known (the plans did not load): the server decides.
    expect(channelOffer({ catalogue, plan: null }, 'call')).toEqual({ included: true });
  });
});

describe('form options', () => {
  it('offers intervals within the catalogue, disabling those faster than the plan', () => {
    const options = intervalOptions(free);
    expect(options[0]).toEqual({ value: '30', label: 'Every 30 seconds (higher plans)', disabled: true });
    expect(options.find((o) => o.value === '300')).toEqual({ value: '300', label: 'Every 5 minutes' });
    expect(options.filter((o) => !o.disabled).every((o) => Number(o.value) >= 300)).toBe(true);
    expect(options.at(-1)?.value).toBe('86400');
    expect(intervalHint(free)).toBe('Your Free plan checks at most every 5 minutes.');
  });

  it('keeps one language option per language', () => {
    expect(languageOptions(catalogue)).toEqual([
      { value: 'en-US', label: 'English' },
      { value: 'de-DE', label: 'German' },
    ]);
  });

  it('starts an edit from the monitor and a new monitor from the defaults and the contact email', () => {
    const monitor = aMonitor({ intervalSeconds: 600, name: 'Checkout' });
    const editing = initialFormValues(free, monitor);
    expect(editing).toMatchObject({
      name: 'Checkout',
      intervalSeconds: '600',
      target: { url: 'https://shop.example.com' },
    });
    const fresh = initialFormValues(free, undefined, { contactEmail: 'owner@shop.com', telPhone: null });
    expect(fresh.email).toEqual({ checked: true, name: '', email: 'owner@shop.com' });
    expect(fresh.sms).toEqual({ checked: false, name: '', isAgree: false, country: null, national: '' });
    expect(fresh.intervalSeconds).toBe('300');
    expect(fresh.conditions.tls_expiry).toEqual({ enabled: true, days: 14 });
  });

  it("fills a new monitor's numbers (not ticked) from the contact phone, and an edit's from the monitor", () => {
    const fresh = initialFormValues(pro, undefined, { telPhone: '+447400123456' });
    expect(fresh.call).toEqual({
      checked: false,
      name: '',
      isAgree: false,
      country: 'gb',
      national: '7400123456',
    });
    const monitor = aMonitor({
      smsSettings: { checked: true, name: 'Ana', isAgree: true, phone: '+33612345678' },
    });
    const editing = initialFormValues(pro, monitor, { telPhone: '+447400123456' });
    expect(editing.sms).toEqual({
      checked: true,
      name: 'Ana',
      isAgree: true,
      country: 'fr',
      national: '612345678',
    });
    expect(editing.call.national).toBe('');
  });
});
