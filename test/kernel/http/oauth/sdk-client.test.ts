import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import {
  authRecords,
  clientFiles,
  getStatus,
  loopbackRedirectServer,
  submitLogin,
} from '../../../helpers/oauth.ts';
import { RecordingOAuthProvider } from '../../../helpers/oauth-apps.ts';
import { sdkFetch } from '../../../helpers/sdk-fetch.ts';

/** A pre-registered confidential client, as an MCP host would configure one (no dynamic registration). */
class PreRegisteredClient extends RecordingOAuthProvider {
  constructor(
    private readonly id: string,
    private readonly secret: string,
    redirectUrl: string,
  ) {
    super(redirectUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.id,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }
  state(): string {
    return 'sdk-state-1';
  }
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: this.id, client_secret: this.secret };
  }
}

describe('the MCP SDK client completes OAuth against the server', () => {
  let k: TestKernel;
  let callback: Awaited<ReturnType<typeof loopbackRedirectServer>>;
  before(async () => {
    callback = await loopbackRedirectServer();
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm+imp+cuc:http://127.0.0.1/callback',
        AUTH_BCRYPT_COST: '4',
      },
    });
  });
  after(async () => {
    await k.stop();
    await callback.close();
  });

  it('authorization code with PKCE, headless: discovery, login form, code exchange, refresh, /status', async () => {
    const { secret } = clientFiles(k.stateDir, 'noc-agent');
    const provider = new PreRegisteredClient('noc-agent', secret, callback.uri('/callback'));
    const serverUrl = `${k.url}/mcp`;
    const fetchFn = sdkFetch(k);

    // 1. Discovery (RFC 9728 then RFC 8414) and the authorization request.
    assert.equal(await auth(provider, { serverUrl, fetchFn }), 'REDIRECT');
    const authUrl = provider.authorizationUrl as URL;
    assert.equal(authUrl.origin + authUrl.pathname, `${k.url}/authorize`);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authUrl.searchParams.get('resource'), `${k.url}/mcp`);
    assert.equal(authUrl.searchParams.get('scope'), 'mcp');
    assert.equal(authUrl.searchParams.get('redirect_uri'), callback.uri('/callback'));

    // 2. The person at the browser: the login form, submitted as a browser would.
    const login = await submitLogin(k, authUrl.href, { client_id: 'noc-agent', client_secret: secret });
    assert.equal(login.status, 302);
    const redirect = new URL(login.location ?? '');
    assert.equal(redirect.origin + redirect.pathname, callback.uri('/callback'));
    assert.equal(redirect.searchParams.get('state'), 'sdk-state-1');
    assert.equal(redirect.searchParams.get('iss'), k.url);
    const code = redirect.searchParams.get('code') ?? '';

    // 3. The SDK exchanges the code (with its PKCE verifier and the resource indicator).
    assert.equal(await auth(provider, { serverUrl, authorizationCode: code, fetchFn }), 'AUTHORIZED');
    const first = provider.tokens() as OAuthTokens;
    assert.equal(first.token_type, 'Bearer');
    assert.ok(first.refresh_token);
    const claims = decodeJwt(first.access_token);
    assert.equal(claims.aud, `${k.url}/mcp`);
    assert.equal(claims.sub, 'noc-agent');

    const status = await getStatus(k, first.access_token);
    assert.equal(status.status, 200);
    assert.deepEqual((status.body.clients as { active: number }).active, 1);
    assert.equal(authRecords(k, 'TOKEN_ISSUED').at(-1)?.grant_type, 'authorization_code');

    // 4. With tokens stored, the SDK refreshes; the refresh token rotates.
    assert.equal(await auth(provider, { serverUrl, fetchFn }), 'AUTHORIZED');
    const second = provider.tokens() as OAuthTokens;
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.notEqual(second.access_token, first.access_token);
    assert.equal((await getStatus(k, second.access_token)).status, 200);
    assert.equal(authRecords(k, 'TOKEN_ISSUED').at(-1)?.grant_type, 'refresh_token');
  });
});
