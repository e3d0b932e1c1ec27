import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTINGS } from './config.ts';

describe('loadConfig()', () => {
  it('runs embedded with no settings at all', () => {
    const config = loadConfig({}, []);
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: './data',
      role: 'all',
      logLevel: 'info',
      logFormat: 'json',
      sandbox: true,
      sandboxPublic: false,
      sandboxSmtpPort: 2525,
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'Vigil <alerts@vigil.local>',
      oidc: {
        issuer: 'http://localhost:3000/sandbox/oidc',
        clientId: 'vigil-local',
        clientSecret: 'vigil-local-secret',
      },
      sessionTtlDays: 30,
      trustProxy: 0,
      checkConcurrency: 50,
      checkBatchSize: 100,
      resultRetentionHours: 48,
    });
    expect(config.webDist).toMatch(/apps\/web\/dist$/);
  });

  it('derives the public URL, SMTP URL and issuer from the ports, treating empty values as unset', () => {
    const config = loadConfig(
      { PORT: '8080', SANDBOX_SMTP_PORT: '2626', PUBLIC_URL: '', DATABASE_URL: '' },
      [],
    );
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.smtpUrl).toBe('smtp://127.0.0.1:2626');
    expect(config.oidc?.issuer).toBe('http://localhost:8080/sandbox/oidc');
    expect(config.databaseUrl).toBeUndefined();
  });

  it('turns OpenID sign-in off when the sandbox is off and no issuer is set', () => {
    expect(loadConfig({ SANDBOX: 'off' }, []).oidc).toBeNull();
    expect(loadConfig({ SANDBOX: 'off', OIDC_ISSUER: 'https://accounts.google.com/' }, []).oidc?.issuer).toBe(
      'https://accounts.google.com',
    );
  });

  it('takes --role from the command line over ROLE', () => {
    const env = { ROLE: 'all', DATABASE_URL: 'postgres://vigil@db:5432/vigil' };
    expect(loadConfig(env, ['--role=worker']).role).toBe('worker');
    expect(loadConfig(env, ['--role', 'api']).role).toBe('api');
    expect(loadConfig(env, []).role).toBe('all');
  });

  it('lists every problem at once, without echoing secrets', () => {
    let error: unknown;
    try {
      loadConfig(
        {
          PORT: 'eighty',
          ROLE: 'both',
          SANDBOX: 'maybe',
          DATABASE_URL: 'mysql://root:hunter2@db/vigil',
          SESSION_TTL_DAYS: '0',
        },
        [],
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toContain('PORT must be a port number. (got "eighty")');
    expect(problems.join('\n')).toContain('ROLE must be all, api or worker.');
    expect(problems.join('\n')).not.toContain('hunter2');
    expect((error as Error).message).toMatch(/^Vigil cannot start; fix these settings:\n {2}- /);
  });

  it('runs the sandbox on loopback only, unless SANDBOX_ALLOW_PUBLIC consents', () => {
    for (const env of [
      {},
      { HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1:3000' },
      { HOST: '::1', PUBLIC_URL: 'http://[::1]:3000' },
      { PUBLIC_URL: 'http://vigil.localhost:3000' },
      { HOST: '0.0.0.0', PUBLIC_URL: 'https://vigil.example.com', SANDBOX: 'off' },
    ]) {
      expect(loadConfig(env, []).sandboxPublic).toBe(false);
    }
    expect(() => loadConfig({ HOST: '0.0.0.0' }, [])).toThrow(
      /SANDBOX=on but HOST=0\.0\.0\.0 listens beyond this machine: .*SANDBOX_ALLOW_PUBLIC=i-understand-anyone-can-read-all-mail/,
    );
    expect(() => loadConfig({ PUBLIC_URL: 'https://vigil.example.com' }, [])).toThrow(
      /SANDBOX=on but PUBLIC_URL=https:\/\/vigil\.example\.com is not a local address/,
    );
    expect(() => loadConfig({ PUBLIC_URL: 'http://localhost.example.com' }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: '0.0.0.0', SANDBOX_ALLOW_PUBLIC: 'yes' }, [])).toThrow(
      /SANDBOX_ALLOW_PUBLIC must be unset or exactly i-understand-anyone-can-read-all-mail/,
    );
    const consented = loadConfig(
      {
        HOST: '0.0.0.0',
        PUBLIC_URL: 'https://demo.example.com',
        SANDBOX_ALLOW_PUBLIC: 'i-understand-anyone-can-read-all-mail',
      },
      [],
    );
    expect(consented).toMatchObject({ sandbox: true, sandboxPublic: true });
  });

  it('refuses split roles on the embedded database', () => {
    expect(() => loadConfig({ ROLE: 'api' }, [])).toThrow(/ROLE=api needs DATABASE_URL/);
  });

  it('documents every setting it reads', () => {
    const documented = SETTINGS.map((setting) => setting.name).sort();
    expect(documented).toEqual(
      [
        'PORT',
        'HOST',
        'PUBLIC_URL',
        'DATABASE_URL',
        'DATA_DIR',
        'ROLE',
        'LOG_LEVEL',
        'LOG_FORMAT',
        'SANDBOX',
        'SANDBOX_ALLOW_PUBLIC',
        'SANDBOX_SMTP_PORT',
        'SMTP_URL',
        'MAIL_FROM',
        'OIDC_ISSUER',
        'OIDC_CLIENT_ID',
        'OIDC_CLIENT_SECRET',
        'WEB_DIST',
        'SESSION_TTL_DAYS',
        'TRUST_PROXY',
        'CHECK_CONCURRENCY',
        'CHECK_BATCH_SIZE',
        'RESULT_RETENTION_HOURS',
        'TWILIO_ACCOUNT_SID',
        'TWILIO_AUTH_TOKEN',
        'TWILIO_FROM_NUMBER',
        'TWILIO_API_URL',
        'SHOPIFY_CLIENT_ID',
        'SHOPIFY_CLIENT_SECRET',
        'SHOPIFY_SCOPES',
        'SHOPIFY_SHOP_URL',
        'SHOPIFY_API_VERSION',
        'GOOGLE_ADS_CLIENT_ID',
        'GOOGLE_ADS_CLIENT_SECRET',
        'GOOGLE_ADS_DEVELOPER_TOKEN',
        'GOOGLE_ADS_API_VERSION',
        'GOOGLE_ADS_API_URL',
        'GOOGLE_OAUTH_AUTHORIZE_URL',
        'GOOGLE_OAUTH_TOKEN_URL',
        'META_APP_ID',
        'META_APP_SECRET',
        'META_GRAPH_VERSION',
        'META_GRAPH_URL',
        'META_DIALOG_URL',
        'SANDBOX_STRIPE_PORT',
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'STRIPE_PRICES',
        'STRIPE_API_URL',
        'TOKEN_ENCRYPTION_KEYS',
      ].sort(),
    );
  });

  it('plays the sandbox Google Ads and Meta apps by default, real ones with credentials, none without', () => {
    const sandbox = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }, []);
    expect(sandbox.googleAds).toMatchObject({
      clientId: 'vigil-sandbox-google-ads.apps.googleusercontent.com',
      apiUrl: 'http://127.0.0.1:3000/sandbox/google/ads',
      authorizeUrl: 'http://127.0.0.1:3000/sandbox/google/o/oauth2/v2/auth',
      tokenUrl: 'http://127.0.0.1:3000/sandbox/google/token',
      apiVersion: 'v21',
    });
    expect(sandbox.meta).toMatchObject({
      appId: '900000000000001',
      graphUrl: 'http://127.0.0.1:3000/sandbox/meta/graph',
      dialogUrl: 'http://127.0.0.1:3000/sandbox/meta/www',
      graphVersion: 'v21.0',
    });
    const real = loadConfig(
      {
        GOOGLE_ADS_CLIENT_ID: 'id.apps.googleusercontent.com',
        GOOGLE_ADS_CLIENT_SECRET: 'secret',
        GOOGLE_ADS_DEVELOPER_TOKEN: 'dev',
        META_APP_ID: '1234567890',
        META_APP_SECRET: 'meta-secret',
      },
      [],
    );
    expect(real.googleAds).toMatchObject({
      apiUrl: 'https://googleads.googleapis.com',
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      developerToken: 'dev',
    });
    expect(real.meta).toMatchObject({
      graphUrl: 'https://graph.facebook.com',
      dialogUrl: 'https://www.facebook.com',
    });
    const off = loadConfig({ SANDBOX: 'off' }, []);
    expect([off.googleAds, off.meta]).toEqual([null, null]);
    expect(() => loadConfig({ GOOGLE_ADS_CLIENT_ID: 'id', GOOGLE_ADS_CLIENT_SECRET: 's' }, [])).toThrow(
      /GOOGLE_ADS_DEVELOPER_TOKEN go together/,
    );
    expect(() =>
      loadConfig({ META_APP_ID: '1234567890', DATABASE_URL: 'postgres://x/y', META_APP_SECRET: 's' }, []),
    ).toThrow(/A Meta app on PostgreSQL needs TOKEN_ENCRYPTION_KEYS/);
  });

  it('plays the sandbox Shopify app by default, a real app with credentials, and none without either', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }, []).shopify).toMatchObject({
      clientId: 'vigil-sandbox-shopify-app',
      shopUrl: 'http://127.0.0.1:3000/sandbox/shopify/shops/{shop}',
      scopes: ['read_products', 'read_inventory'],
      apiVersion: '2025-01',
    });
    const real = loadConfig({ SHOPIFY_CLIENT_ID: 'id', SHOPIFY_CLIENT_SECRET: 'secret' }, []);
    expect(real.shopify).toMatchObject({ clientId: 'id', clientSecret: 'secret', shopUrl: 'https://{shop}' });
    expect(loadConfig({ SANDBOX: 'off' }, []).shopify).toBeNull();
    expect(() => loadConfig({ SHOPIFY_CLIENT_ID: 'id' }, [])).toThrow(/go together/);
    expect(() =>
      loadConfig(
        { SHOPIFY_CLIENT_ID: 'id', SHOPIFY_CLIENT_SECRET: 's', DATABASE_URL: 'postgres://u@h:5432/v' },
        [],
      ),
    ).toThrow(/TOKEN_ENCRYPTION_KEYS/);
  });

  it('talks to the sandbox Twilio by default, to Twilio with an account, and to none without either', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }, []).twilio).toMatchObject({
      apiUrl: 'http://127.0.0.1:3000/sandbox/twilio',
      fromNumber: '+15005550006',
    });
    const real = loadConfig(
      { TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'secret-token', SANDBOX: 'off' },
      [],
    );
    expect(real.twilio).toEqual({
      apiUrl: 'https://api.twilio.com',
      accountSid: `AC${'1'.repeat(32)}`,
      authToken: 'secret-token',
      fromNumber: '+15005550006',
    });
    expect(loadConfig({ SANDBOX: 'off' }, []).twilio).toBeNull();
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC123', TWILIO_FROM_NUMBER: '0612' }, [])).toThrow(
      /TWILIO_ACCOUNT_SID must be AC followed by 32[\s\S]*TWILIO_FROM_NUMBER must be a phone number/,
    );
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}` }, [])).toThrow(
      /without TWILIO_AUTH_TOKEN/,
    );
  });

  it('takes payments through the sandbox Stripe by default, a real account with its prices, and none without', () => {
    expect(loadConfig({ SANDBOX_STRIPE_PORT: '12999' }, []).stripe).toEqual({
      secretKey: 'sk_test_vigil_sandbox',
      webhookSecret: 'whsec_vigil_sandbox_signing_secret',
      apiUrl: 'http://127.0.0.1:12999',
      prices: {
        'Starter:month': 'price_vigil_starter_month',
        'Starter:year': 'price_vigil_starter_year',
        'Pro:month': 'price_vigil_pro_month',
        'Pro:year': 'price_vigil_pro_year',
        'Business:month': 'price_vigil_business_month',
        'Business:year': 'price_vigil_business_year',
      },
      sandbox: true,
    });
    const prices =
      'Starter:month=price_1,Starter:year=price_2,pro:month=price_3,Pro:year=price_4,Business:month=price_5,Business:year=price_6';
    const real = loadConfig(
      {
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_xyz',
        STRIPE_PRICES: prices,
        SANDBOX: 'off',
      },
      [],
    );
    expect(real.stripe).toMatchObject({
      apiUrl: 'https://api.stripe.com',
      sandbox: false,
      prices: { 'Pro:month': 'price_3', 'Business:year': 'price_6' },
    });
    expect(loadConfig({ SANDBOX: 'off' }, []).stripe).toBeNull();
    expect(() =>
      loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_xyz' }, []),
    ).toThrow(/needs STRIPE_PRICES/);
    expect(() =>
      loadConfig(
        {
          STRIPE_SECRET_KEY: 'sk_live_abc',
          STRIPE_WEBHOOK_SECRET: 'whsec_xyz',
          STRIPE_PRICES: 'Gold:month=price_1',
        },
        [],
      ),
    ).toThrow(/"Gold:month=price_1" is not Plan:period=price_id[\s\S]*no price for Starter:month/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc' }, [])).toThrow(/go together/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_live_abc' }, [])).toThrow(/must be a secret key/);
  });

  it('trusts as many proxies as TRUST_PROXY says: off, on (one) or a number', () => {
    expect(loadConfig({}, []).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'on' }, []).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }, []).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'off' }, []).trustProxy).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' }, [])).toThrow(
      /TRUST_PROXY must be off, on \(one proxy\) or the number of proxies in front of Vigil/,
    );
  });

  it('bounds the check engine settings', () => {
    expect(loadConfig({ CHECK_CONCURRENCY: '200', CHECK_BATCH_SIZE: '20' }, [])).toMatchObject({
      checkConcurrency: 200,
      checkBatchSize: 20,
    });
    expect(() => loadConfig({ CHECK_CONCURRENCY: '0', RESULT_RETENTION_HOURS: 'two days' }, [])).toThrow(
      /CHECK_CONCURRENCY must be at least 1[\s\S]*RESULT_RETENTION_HOURS must be a number/,
    );
  });

  it('has every setting in the README', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const missing = SETTINGS.filter((setting) => !readme.includes(`| \`${setting.name}\``));
    expect(missing.map((setting) => setting.name)).toEqual([]);
  });
});
