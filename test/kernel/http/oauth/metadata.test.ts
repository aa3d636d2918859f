import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { authorizeUrl, clientFiles, submitLogin } from '../../../helpers/oauth.ts';

describe('OAuth metadata (RFC 8414, RFC 9728)', () => {
  let k: TestKernel;
  const get = async (path: string) => {
    const res = await k.fetch(`${k.url}${path}`);
    assert.equal(res.status, 200, path);
    return (await res.json()) as Record<string, unknown>;
  };
  before(async () => {
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'noc-agent:operator:cucm:http://127.0.0.1/cb', AUTH_BCRYPT_COST: '4' },
    });
  });
  after(async () => {
    await k.stop();
  });

  it('publishes the authorization server: PKCE S256 only, secret or public clients, registration and metadata documents', async () => {
    const as = await get('/.well-known/oauth-authorization-server');
    assert.equal(as.issuer, k.url);
    assert.equal(as.authorization_endpoint, `${k.url}/authorize`);
    assert.equal(as.token_endpoint, `${k.url}/token`);
    assert.equal(as.revocation_endpoint, `${k.url}/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(as.response_types_supported, ['code']);
    assert.deepEqual(as.grant_types_supported, ['authorization_code', 'client_credentials', 'refresh_token']);
    assert.deepEqual(as.token_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'none',
    ]);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.equal(as.registration_endpoint, `${k.url}/register`);
    assert.equal(as.client_id_metadata_document_supported, true);
  });

  it('publishes the protected resource at both paths, the /mcp variant naming the MCP URL', async () => {
    const mcp = await get('/.well-known/oauth-protected-resource/mcp');
    assert.equal(mcp.resource, `${k.url}/mcp`);
    assert.deepEqual(mcp.authorization_servers, [k.url]);
    assert.deepEqual(mcp.bearer_methods_supported, ['header']);
    const root = await get('/.well-known/oauth-protected-resource');
    assert.equal(root.resource, k.url);
    assert.deepEqual(root.authorization_servers, [k.url]);
  });

  it('uses one issuer string everywhere: metadata, tokens, the authorization response', async () => {
    const issuers = new Set<unknown>();
    issuers.add((await get('/.well-known/oauth-authorization-server')).issuer);
    for (const p of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])
      for (const s of (await get(p)).authorization_servers as string[]) issuers.add(s);
    const { token, secret } = clientFiles(k.stateDir, 'noc-agent');
    issuers.add(decodeJwt(token).iss);
    const login = await submitLogin(
      k,
      authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: 'http://127.0.0.1/cb' }).url,
      {
        client_id: 'noc-agent',
        client_secret: secret,
      },
    );
    issuers.add(new URL(login.location ?? '').searchParams.get('iss'));
    assert.deepEqual([...issuers], [k.url]);
  });
});

describe('issuer from PUBLIC_BASE_URL', () => {
  it('strips a trailing slash so the issuer is the same string everywhere', async () => {
    const k = await startTestKernel({
      env: {
        PUBLIC_BASE_URL: 'https://uc-mcp.example.com/',
        AUTH_CLIENTS: 'a:admin:cucm',
        AUTH_BCRYPT_COST: '4',
      },
    });
    try {
      const port = k.kernel.port;
      const res = await k.fetch(`https://127.0.0.1:${port}/.well-known/oauth-authorization-server`);
      const as = (await res.json()) as Record<string, unknown>;
      assert.equal(as.issuer, 'https://uc-mcp.example.com');
      assert.equal(as.token_endpoint, 'https://uc-mcp.example.com/token');
      const claims = decodeJwt(clientFiles(k.stateDir, 'a').token);
      assert.equal(claims.iss, 'https://uc-mcp.example.com');
      assert.equal(claims.aud, 'https://uc-mcp.example.com/mcp');
    } finally {
      await k.stop();
    }
  });
});
