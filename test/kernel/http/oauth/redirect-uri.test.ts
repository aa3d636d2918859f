// A loopback redirect URI on port 0 or 99999 reached the redirect after login, where building the URL
// threw: INTERNAL_ERROR. Every malformed redirect_uri is now refused up front with a coded page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { authRecords, authorizeUrl, clientFiles, submitLogin } from '../../../helpers/oauth.ts';
import {
  MALFORMED_REDIRECT_URIS,
  redirectUriArbitrary,
  WELL_FORMED_REDIRECT_URIS,
} from '../../../helpers/redirect-uris.ts';
import { fuzzParameters } from '../../../reliability/fuzz/support/fuzz-config.ts';

const REGISTERED = 'http://127.0.0.1/callback';

describe('redirect_uri at /authorize', () => {
  let k: TestKernel;
  let secret: string;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: `noc-agent:operator:cucm:${REGISTERED}|http://[::1]/callback`,
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
