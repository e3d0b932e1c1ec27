import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './index.ts';

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint: string;
}
interface Tokens {
  id_token: string;
  access_token: string;
}

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

let app: FastifyInstance;
let sandbox: Sandbox;
let origin = '';
let smtpPort = 0;

beforeAll(async () => {
  sandbox = createSandbox({
    publicUrl: () => origin,
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
  });
  app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  ({ smtpPort } = await sandbox.start());
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await sandbox.stop();
});

describe('sandbox SMTP server', () => {
  it('keeps a message sent over SMTP and shows it on the sandbox page', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false });
    await transport.sendMail({
      from: 'Vigil <alerts@vigil.local>',
      to: 'Owner@Shop.example',
      subject: 'Your code is 123456',
      text: 'Code: 123456',
      html: '<p>Code: <b>123456</b></p>',
    });
    const mail = await sandbox.mailbox.waitFor((m) => m.to.includes('owner@shop.example'), 5000);
    expect(mail).toMatchObject({
      from: 'alerts@vigil.local',
      subject: 'Your code is 123456',
      text: 'Code: 123456\n',
    });

    const listing = await fetch(`${origin}/sandbox`).then((r) => r.text());
    expect(listing).toContain('Your code is 123456');
    const view = await fetch(`${origin}/sandbox/mail/${mail.id}`).then((r) => r.text());
    expect(view).toContain('Code: 123456');
    const api = await json<{ data: { list: unknown[] } }>(
      fetch(`${origin}/sandbox/api/mails?to=owner@shop.example`),
    );
    expect(api.data.list).toHaveLength(1);
  });

  it('escapes what it shows, so a mail cannot script the page', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false });
    await transport.sendMail({
      from: 'a@b.co',
      to: 'x@y.co',
      subject: '<script>alert(1)</script>',
      text: 'hi',
    });
    await sandbox.mailbox.waitFor((m) => m.to.includes('x@y.co'), 5000);
    const listing = await fetch(`${origin}/sandbox`).then((r) => r.text());
    expect(listing).not.toContain('<script>alert(1)</script>');
    expect(listing).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('sandbox OpenID provider', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  async function authorize(overrides: Record<string, string> = {}) {
    const discovery = await json<Discovery>(fetch(`${origin}/sandbox/oidc/.well-known/openid-configuration`));
    const redirectUri = `${origin}/app/oauth`;
    const form = new URLSearchParams({
      client_id: 'client-a',
      redirect_uri: redirectUri,
      state: 'st-1',
      nonce: 'n-1',
      scope: 'openid email profile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      email: 'Merchant@Example.com',
      name: 'M',
      email_verified: 'true',
      decision: 'allow',
      ...overrides,
    });
    const response = await fetch(discovery.authorization_endpoint, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    return {
      discovery,
      redirectUri,
      response,
      location: new URL(response.headers.get('location') ?? '', origin),
    };
  }

  it('runs the authorization code flow with PKCE and signs an id_token the JWKS verifies', async () => {
    const { discovery, redirectUri, response, location } = await authorize();
    expect(response.status).toBe(302);
    expect(location.searchParams.get('state')).toBe('st-1');
    const code = location.searchParams.get('code')!;

    const token = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('client-a:secret-a').toString('base64')}` },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const tokens = await json<Tokens>(token);
    const { payload } = await jwtVerify(tokens.id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
      issuer: `${origin}/sandbox/oidc`,
      audience: 'client-a',
    });
    expect(payload).toMatchObject({ email: 'merchant@example.com', email_verified: true, nonce: 'n-1' });

    const reuse = await fetch(discovery.token_endpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: 'client-a',
        client_secret: 'secret-a',
      }),
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });

    const userinfo = await fetch(discovery.userinfo_endpoint, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(await userinfo.json()).toMatchObject({ email: 'merchant@example.com' });
  });

  it('refuses a wrong PKCE verifier and a wrong client secret', async () => {
    const { discovery, redirectUri, location } = await authorize();
    const code = location.searchParams.get('code')!;
    const badSecret = await fetch(discovery.token_endpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: 'client-a',
        client_secret: 'nope',
      }),
    });
    expect(badSecret.status).toBe(401);
    const badVerifier = await fetch(discovery.token_endpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: 'x'.repeat(43),
        client_id: 'client-a',
        client_secret: 'secret-a',
      }),
    });
    expect(badVerifier.status).toBe(400);
    expect(await badVerifier.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'PKCE verification failed.',
    });
  });

  it('never redirects to an unregistered redirect_uri and reports a cancel as access_denied', async () => {
    const page = await fetch(
      `${origin}/sandbox/oidc/authorize?client_id=client-a&redirect_uri=https://evil.example/cb&scope=openid&code_challenge=x&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    expect(page.status).toBe(400);
    const { location } = await authorize({ decision: 'deny' });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('shows a sign-in form that keeps the request parameters', async () => {
    const url = `${origin}/sandbox/oidc/authorize?response_type=code&client_id=client-a&redirect_uri=${encodeURIComponent(`${origin}/app/oauth`)}&scope=openid%20email&state=abc&nonce=n&code_challenge=${challenge}&code_challenge_method=S256`;
    const html = await fetch(url).then((r) => r.text());
    expect(html).toContain('name="state" value="abc"');
    expect(html).toContain('<label for="email">Email</label>');
  });
});
