import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox } from '@vigil/sandbox';
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { type MetaSettings, SANDBOX_META, SANDBOX_SHOPIFY, SANDBOX_TWILIO } from '../config.ts';

export interface SandboxServer {
  /** http://127.0.0.1:<port>, the sandbox under /sandbox. */
  url: string;
  /** The sandbox Twilio's API base, as TWILIO_API_URL. */
  twilioApiUrl: string;
  /** The sandbox Shopify's shops, as SHOPIFY_SHOP_URL. */
  shopifyShopUrl: string;
  /** The sandbox Meta app's settings (Graph and the login dialog), as META_* configure them. */
  meta: MetaSettings;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/**
 * The sandbox alone on its own HTTP server, playing the sandbox Twilio account with `fromNumber` and the
 * sandbox Shopify app; `extra`
 * adds routes beside it (a stand-in for Vigil's webhooks).
 */
export async function startSandboxServer(
  fromNumber: string,
  extra?: FastifyPluginAsync,
): Promise<SandboxServer> {
  const server = Fastify();
  let url = '';
  const sandbox = createSandbox({
    publicUrl: () => url,
    smtpPort: 0,
    oidcClientId: 'vigil-test',
    oidcClientSecret: 'vigil-test-secret',
    twilio: { ...SANDBOX_TWILIO, phoneNumber: fromNumber },
    shopify: { ...SANDBOX_SHOPIFY, webhookRetryDelaysMs: [50] },
    meta: { ...SANDBOX_META },
  });
  await server.register(sandbox.plugin, { prefix: '/sandbox' });
  if (extra) await server.register(extra);
  await server.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    url,
    twilioApiUrl: `${url}/sandbox/twilio`,
    shopifyShopUrl: `${url}/sandbox/shopify/shops/{shop}`,
    meta: {
      ...SANDBOX_META,
      graphVersion: 'v21.0',
      graphUrl: `${url}/sandbox/meta/graph`,
      dialogUrl: `${url}/sandbox/meta/www`,
    },
    sandbox,
    async close() {
      await server.close();
      await sandbox.stop();
    },
  };
}
