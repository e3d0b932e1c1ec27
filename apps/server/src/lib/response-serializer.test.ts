import { envelope, monitor as monitorSchema, pageOf, type Monitor } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileStrip, serializerCompiler } from './response-serializer.ts';

// A page of whole monitors: discriminated unions, nested objects, nullable fields and records, many levels deep.
const monitorListResponse = envelope(pageOf(monitorSchema));

const serialize = (schema: z.ZodType, data: unknown) =>
  serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' })(data);

const monitor: Monitor = {
  monitorId: '7b0f5a52-3f7e-4d38-9a36-2b0b8c1f1a11',
  name: 'Storefront',
  service: 'website',
  target: { url: 'https://shop.example/' },
  conditions: {
    http_status: { enabled: true },
    timeout: { enabled: true, timeoutMs: 10_000 },
    keyword: { enabled: false, keyword: '', mode: 'missing' },
    slow_response: { enabled: false, thresholdMs: 3000 },
    tls_expiry: { enabled: true, days: 14 },
    password_page: { enabled: false },
  },
  intervalSeconds: 60,
  repeatIntervalMinutes: 30,
  confirmations: 2,
  languageCode: 'en-US',
  callSettings: { checked: false, name: '', isAgree: false, phone: '' },
  smsSettings: { checked: false, name: '', isAgree: false, phone: '' },
  emailSettings: { checked: true, name: 'Owner', isAgree: false, email: 'owner@shop.example' },
  status: 'up',
  paused: false,
  pauseReason: null,
  lastCheckedAt: '2026-03-01T10:00:00.000Z',
  lastResponseMs: 120,
  lastError: null,
  uptime24h: 99.31,
  openIncidents: 0,
  createdAt: '2026-02-01T10:00:00.000Z',
};

describe('serializerCompiler()', () => {
  it('answers what zod would: the same JSON values as encoding with the schema (key order aside)', () => {
    const page = {
      data: { list: [monitor, { ...monitor, uptime24h: null }], total: 2, page: 1, pageSize: 20 },
    };
    expect(JSON.parse(serialize(monitorListResponse, page))).toEqual(
      JSON.parse(JSON.stringify(monitorListResponse.encode(page))),
    );
  });

  it('leaves out every key the schema does not declare, at any depth', () => {
    const leaky = {
      data: {
        list: [
          { ...monitor, userId: 'u-1', checkState: {}, target: { url: monitor.target.url, token: 's' } },
        ],
        total: 1,
        page: 1,
        pageSize: 20,
        passwordHash: 'x',
      },
    };
    const sent = JSON.parse(serialize(monitorListResponse, leaky));
    expect(sent).toEqual({ data: { list: [monitor], total: 1, page: 1, pageSize: 20 } });
  });

  it('copies nothing when nothing has to go', () => {
    const page = { data: { list: [monitor], total: 1, page: 1, pageSize: 20 } };
    expect(compileStrip(monitorListResponse)(page)).toBe(page);
  });

  it('keeps the keys of the union branch a value matches, and a loose object’s extra keys', () => {
    const schema = z.object({
      value: z.union([z.object({ kind: z.literal('a'), a: z.number() }), z.object({ kind: z.literal('b') })]),
      loose: z.looseObject({ id: z.string() }),
      byName: z.record(z.string(), z.object({ n: z.number() })),
    });
    const strip = compileStrip(schema);
    expect(
      strip({
        value: { kind: 'a', a: 1, extra: true },
        loose: { id: 'x', more: 1 },
        byName: { one: { n: 1, extra: 2 } },
        extra: 1,
      }),
    ).toEqual({ value: { kind: 'a', a: 1 }, loose: { id: 'x', more: 1 }, byName: { one: { n: 1 } } });
  });

  it('picks a discriminated union’s branch by its discriminator and strips with that branch', () => {
    const schema = z.discriminatedUnion('service', [
      z.object({ service: z.literal('website'), target: z.object({ url: z.string() }) }),
      z.object({
        service: z.literal('shopify'),
        target: z.object({ shop: z.string() }),
        connection: z.null(),
      }),
    ]);
    const strip = compileStrip(schema);
    expect(
      strip({ service: 'shopify', target: { shop: 's', token: 'x' }, connection: null, secret: 1 }),
    ).toEqual({
      service: 'shopify',
      target: { shop: 's' },
      connection: null,
    });
    expect(strip({ service: 'website', target: { url: 'u', shop: 's' } })).toEqual({
      service: 'website',
      target: { url: 'u' },
    });
  });
});
