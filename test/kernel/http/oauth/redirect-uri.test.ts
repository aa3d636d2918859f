// A loopback redirect URI on port 0 or 99999 reached the redirect after login, where building the URL
// threw: INTERNAL_ERROR. Every malformed redirect_uri is now refused up front with a coded page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import {
  authRecords,
  authorizeUrl,
  basicAuth,
  clientFiles,
  getStatus,
  postForm,
  submitLogin,
} from '../../../helpers/oauth.ts';
import {
  MALFORMED_REDIRECT_URIS,
  redirectUriArbitrary,
  WELL_FORMED_REDIRECT_URIS,
} from '../../../helpers/redirect-uris.ts';
import { fuzzParameters } from '../../../reliability/fuzz/support/fuzz-config.ts';

const REGISTERED = 'http://127.0.0.1/callback';
const WEB = 'https://agent.example.com/oauth/cb';

describe('redirect_uri at /authorize', () => {
  let k: TestKernel;
  let secret: string;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: `noc-agent:operator:cucm:${REGISTERED}|http://[::1]/callback,web-agent:operator:cucm:${WEB}`,
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '100000',
      },
    });
    secret = clientFiles(k.stateDir, 'noc-agent').secret;
  });
  after(async () => {
    await k.stop();
  });

  /** The whole browser leg: page, then the form; never a 5xx at either step. */
  async function attempt(redirectUri: string) {
    const { url } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: redirectUri });
    const login = await submitLogin(k, url, { client_id: 'noc-agent', client_secret: secret });
    assert.ok(login.status < 500, `${login.status} for ${JSON.stringify(redirectUri.slice(0, 80))}`);
    assert.doesNotMatch(login.html, /INTERNAL_ERROR/);
    return login;
  }

  it('a malformed one is answered 400 invalid_request on a page, never redirected to, audited', async () => {
    for (const [uri] of MALFORMED_REDIRECT_URIS) {
      const login = await attempt(uri);
      const what = JSON.stringify(uri.slice(0, 80));
      assert.equal(login.status, 400, what);
      assert.equal(login.location, null, what);
      assert.match(login.html, /invalid_request: redirect_uri /, what);
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'invalid_redirect_uri', what);
    }
  });

  it('a loopback one on port 1 or 65535 goes through: redirected to that port with a code', async () => {
    for (const uri of WELL_FORMED_REDIRECT_URIS.filter((u) => u.startsWith('http://127.0.0.1:'))) {
      const login = await attempt(uri);
      assert.equal(login.status, 302, uri);
      const location = new URL(login.location ?? '');
      assert.equal(`${location.origin}${location.pathname}`, uri);
      assert.ok(location.searchParams.get('code'));
    }
  });

  /** The whole authorization-code flow from `redirectUri`: the redirect goes where the client asked. */
  async function flow(client: string, redirectUri: string) {
    const clientSecret = clientFiles(k.stateDir, client).secret;
    const { url, verifier } = authorizeUrl(k, { client_id: client, redirect_uri: redirectUri });
    const login = await submitLogin(k, url, { client_id: client, client_secret: clientSecret });
    return { login, verifier, clientSecret };
  }

  // RFC 8252 sections 7.3 and 8.3: Claude Code asks for http://localhost:<port>/callback whatever was
  // registered, and was refused "Redirect URI not registered" when 127.0.0.1 was.
  for (const requested of ['http://localhost:5555/callback', 'http://[::1]:5555/callback']) {
    it(`a client registered with ${REGISTERED} completes the flow from ${requested}`, async () => {
      const { login, verifier, clientSecret } = await flow('noc-agent', requested);
      assert.equal(login.status, 302, login.html.slice(0, 300));
      const location = new URL(login.location ?? '');
      assert.equal(`${location.protocol}//${location.host}${location.pathname}`, requested);
      const code = location.searchParams.get('code') ?? '';
      const res = await postForm(
        k,
        '/token',
        { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: requested },
        { authorization: basicAuth('noc-agent', clientSecret) },
      );
      assert.equal(res.status, 200, await res.clone().text());
      const { access_token } = (await res.json()) as { access_token: string };
      const status = await getStatus(k, access_token);
      assert.equal(status.status, 200);
    });
  }

  it('the token request must name the redirect URI as requested, not the registered one', async () => {
    const { login, verifier, clientSecret } = await flow('noc-agent', 'http://localhost:5555/callback');
    const code = new URL(login.location ?? '').searchParams.get('code') ?? '';
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REGISTERED },
      { authorization: basicAuth('noc-agent', clientSecret) },
    );
    assert.equal(res.status, 400);
  });

  it('a non-loopback https redirect URI is still matched exactly', async () => {
    const ok = await flow('web-agent', WEB);
    assert.equal(ok.login.status, 302);
    assert.ok(ok.login.location?.startsWith(`${WEB}?`), ok.login.location ?? '');
    for (const other of [
      'https://agent.example.com:8443/oauth/cb',
      'https://agent.example.com/oauth/cb/',
      'https://localhost/oauth/cb',
      'http://localhost:5555/oauth/cb',
    ]) {
      const { login } = await flow('web-agent', other);
      assert.equal(login.status, 400, other);
      assert.equal(login.location, null, other);
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'redirect_uri_not_registered', other);
    }
  });

  it('property: no redirect_uri yields a 5xx, and what is redirected to is a valid URL', async () => {
    await fc.assert(
      fc.asyncProperty(redirectUriArbitrary(), async (uri) => {
        const login = await attempt(uri);
        assert.ok([302, 400].includes(login.status), `${login.status}`);
        if (login.status === 302) assert.doesNotThrow(() => new URL(login.location ?? ''));
      }),
      fuzzParameters(120, 72),
    );
  });
});
