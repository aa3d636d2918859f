// The "done when": the SDK's auth() completes the authorization-code flow with no pre-registered
// client, through dynamic client registration and through a client ID metadata document, then calls a
// tool; the token names the AUTH_CLIENTS identity chosen at the login page, and the application beside it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auth as authV2 } from '@modelcontextprotocol/client';
import { auth as authV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { connectMcp } from '../../../helpers/mcp-client.ts';
import {
  documentServer,
  json,
  metadataDocument,
  PublicAppProvider,
  type DocumentServer,
} from '../../../helpers/oauth-apps.ts';
import {
  authRecords,
  clientFiles,
  getStatus,
  loopbackRedirectServer,
  pkcePair,
  submitLogin,
} from '../../../helpers/oauth.ts';
import { sdkFetch } from '../../../helpers/sdk-fetch.ts';

/** The SDK's auth() of either line, called the same way (v2 also checks the RFC 9207 `iss`). */
type AuthFn = (
  provider: PublicAppProvider,
  o: { serverUrl: string; fetchFn: ReturnType<typeof sdkFetch>; authorizationCode?: string; iss?: string },
) => Promise<string>;
const SDKS: [string, AuthFn][] = [
  ['SDK v1 (@modelcontextprotocol/sdk)', (p, o) => authV1(p, o)],
  ['SDK v2 (@modelcontextprotocol/client)', (p, o) => authV2(p as never, o as never)],
];

describe('an MCP host with no pre-registered client signs in through the SDK', () => {
  let k: TestKernel;
  let docs: DocumentServer;
  let callback: Awaited<ReturnType<typeof loopbackRedirectServer>>;

  before(async () => {
    callback = await loopbackRedirectServer();
    docs = await documentServer();
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm+imp+cuc,auditor1:auditor:cucm',
        AUTH_BCRYPT_COST: '4',
      },
      clientMetadataCa: docs.certPem,
    });
  });
  after(async () => {
    await k.stop();
    await docs.close();
    await callback.close();
  });

  /** auth() until it redirects, the person signs in as `identity`, auth() again with the code. */
  async function signIn(auth: AuthFn, provider: PublicAppProvider, identity: string): Promise<OAuthTokens> {
    const serverUrl = `${k.url}/mcp`;
    const fetchFn = sdkFetch(k);
    assert.equal(await auth(provider, { serverUrl, fetchFn }), 'REDIRECT');
    const authUrl = provider.authorizationUrl as URL;
    assert.equal(authUrl.origin + authUrl.pathname, `${k.url}/authorize`);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    const { secret } = clientFiles(k.stateDir, identity);
    const login = await submitLogin(k, authUrl.href, { client_id: identity, client_secret: secret });
    assert.equal(login.status, 302, login.html);
    const redirect = new URL(login.location ?? '');
    assert.equal(redirect.searchParams.get('state'), 'app-state-1');
    const code = redirect.searchParams.get('code') ?? '';
    const iss = redirect.searchParams.get('iss') ?? '';
    assert.equal(await auth(provider, { serverUrl, authorizationCode: code, iss, fetchFn }), 'AUTHORIZED');
    return provider.saved as OAuthTokens;
  }

  async function callsATool(token: string): Promise<void> {
    const c = await connectMcp(k, token);
    try {
      const r = await c.call('infra_health');
      assert.equal(r.isError, undefined, JSON.stringify(r));
    } finally {
      await c.close();
    }
  }

  for (const [sdk, auth] of SDKS) {
    it(`${sdk}, through dynamic client registration (RFC 7591): the token is the chosen client, the app beside it`, async () => {
      const provider = new PublicAppProvider(callback.uri('/callback'), 'Test Host <DCR> & co');
      const tokens = await signIn(auth, provider, 'auditor1');

      const appId = provider.info?.client_id as string;
      assert.match(appId, /^app\.[A-Za-z0-9_-]{22}$/);
      assert.equal((provider.info as { client_secret?: string }).client_secret, undefined, 'a public client');
      const claims = decodeJwt(tokens.access_token);
      assert.equal(claims.sub, 'auditor1');
      assert.equal(claims.client_id, 'auditor1');
      assert.equal(claims.azp, appId);
      assert.equal(claims.client_app, 'Test Host <DCR> & co');

      await callsATool(tokens.access_token);
      const status = await getStatus(k, tokens.access_token);
      assert.equal(status.status, 200);

      const registered = authRecords(k, 'APP_REGISTERED').find((r) => r.azp === appId);
      assert.equal(registered?.azp, appId);
      assert.equal(registered?.client_app, 'Test Host <DCR> & co');
      const login = authRecords(k, 'AUTH_OK').find((r) => r.path === '/authorize' && r.azp === appId);
      assert.equal(login?.client, 'auditor1');
      assert.equal(login?.client_app, 'Test Host <DCR> & co');
      const issued = authRecords(k, 'TOKEN_ISSUED').filter((r) => r.azp === appId);
      assert.deepEqual(
        issued.map((r) => [r.client, r.grant_type, r.auth_method, r.client_app]),
        [['auditor1', 'authorization_code', 'none', 'Test Host <DCR> & co']],
      );
      const used = authRecords(k, 'AUTH_OK').filter((r) => r.path === '/mcp' && r.azp === appId);
      assert.ok(used.length > 0 && used.every((r) => r.client === 'auditor1'));

      // The SDK refreshes with the app's client_id; the new token keeps the app binding.
      assert.equal(await auth(provider, { serverUrl: `${k.url}/mcp`, fetchFn: sdkFetch(k) }), 'AUTHORIZED');
      const refreshed = decodeJwt((provider.saved as OAuthTokens).access_token);
      assert.notEqual(refreshed.jti, claims.jti);
      assert.equal(refreshed.sub, 'auditor1');
      assert.equal(refreshed.azp, appId);
      const last = authRecords(k, 'TOKEN_ISSUED').at(-1);
      assert.equal(last?.grant_type, 'refresh_token');
      assert.equal(last?.azp, appId);
      assert.equal(last?.client, 'auditor1');
    });

    it(`${sdk}, through a client ID metadata document served over HTTPS on loopback`, async () => {
      const path = `/oauth/${sdk.slice(0, 6).replace(/\W/g, '')}/client.json`;
      const docUrl = docs.url(path);
      // The document registers http://127.0.0.1/callback; the host listens on another loopback port.
      docs.routes.set(
        path,
        json(metadataDocument(docUrl, ['http://127.0.0.1/callback'], 'Doc Host'), {
          'cache-control': 'max-age=60',
        }),
      );
      const provider = new PublicAppProvider(
        callback.uri('/callback'),
        'ignored: the document names it',
        docUrl,
      );

      const page = await k.fetch(
        `${k.url}/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: docUrl,
          redirect_uri: callback.uri('/callback'),
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }).toString()}`,
      );
      const html = await page.text();
      assert.equal(page.status, 200, html);
      assert.match(html, /<dd id="app-name">Doc Host<\/dd>/);
      assert.match(html, new RegExp(`its metadata document at localhost:${new URL(docUrl).port}`));
      assert.match(
        html,
        /<input id="client_id" name="client_id" required autofocus>/,
        'the person names the client',
      );

      const tokens = await signIn(auth, provider, 'noc-agent');
      assert.equal(provider.info?.client_id, docUrl);
      const claims = decodeJwt(tokens.access_token);
      assert.equal(claims.sub, 'noc-agent');
      assert.equal(claims.client_id, 'noc-agent');
      assert.equal(claims.azp, docUrl);
      assert.equal(claims.client_app, 'Doc Host');
      await callsATool(tokens.access_token);

      assert.equal(docs.hits.get(path), 1, 'fetched once, then served from the cache');
      const fetched = authRecords(k, 'APP_DOCUMENT_FETCHED').filter((r) => r.azp === docUrl);
      assert.equal(fetched.length, 1);
      assert.equal(fetched[0]?.azp, docUrl);
      assert.equal(fetched[0]?.client_app, 'Doc Host');
      const issued = authRecords(k, 'TOKEN_ISSUED').filter((r) => r.azp === docUrl);
      assert.deepEqual(
        issued.map((r) => [r.client, r.grant_type, r.auth_method, r.client_app]),
        [['noc-agent', 'authorization_code', 'none', 'Doc Host']],
      );
      const login = authRecords(k, 'AUTH_OK').find((r) => r.path === '/authorize' && r.azp === docUrl);
      assert.equal(login?.client, 'noc-agent');
    });
  }
});
