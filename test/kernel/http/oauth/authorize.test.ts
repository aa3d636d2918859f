import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import {
  authRecords,
  authorizeUrl,
  basicAuth,
  clientFiles,
  getStatus,
  pkcePair,
  postForm,
  submitLogin,
} from '../../../helpers/oauth.ts';

const REDIRECT = 'http://127.0.0.1/callback';
const WEB_REDIRECT = 'https://agent.example.com/cb?tenant=a&x="><script>alert(1)</script>';

describe('authorization code flow with PKCE', () => {
  let k: TestKernel;
  let secret: string;
  const client = () => ({ client_id: 'noc-agent', client_secret: secret });
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: `noc-agent:operator:cucm+imp:${REDIRECT}|${WEB_REDIRECT},auditor1:auditor:cucm:https://audit.example/cb`,
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '1000',
      },
    });
    secret = clientFiles(k.stateDir, 'noc-agent').secret;
  });
  after(async () => {
    await k.stop();
  });

  /** Login, then the token request; `tamper` changes what is sent to /token. */
  async function exchange(
    tamper: (p: Record<string, string>) => Record<string, string> = (p) => p,
    redirect = 'http://127.0.0.1:43210/callback',
  ) {
    const { url, verifier } = authorizeUrl(k, {
      client_id: 'noc-agent',
      redirect_uri: redirect,
      state: 'st-1',
    });
    const login = await submitLogin(k, url, client());
    assert.equal(login.status, 302);
    const location = new URL(login.location ?? '');
    const code = location.searchParams.get('code') ?? '';
    const params = tamper({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirect,
    });
    const res = await postForm(k, '/token', params, { authorization: basicAuth('noc-agent', secret) });
    return { res, code, location, verifier, redirect };
  }

  it('redirects with code, state and iss to a loopback redirect on any port, then issues tokens', async () => {
    const { res, location } = await exchange();
    assert.equal(location.origin, 'http://127.0.0.1:43210');
    assert.equal(location.pathname, '/callback');
    assert.equal(location.searchParams.get('state'), 'st-1');
    assert.equal(location.searchParams.get('iss'), k.url);
    assert.match(location.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    assert.equal((await getStatus(k, body.access_token)).status, 200);
    assert.ok(authRecords(k, 'AUTH_OK').some((r) => r.path === '/authorize' && r.client === 'noc-agent'));
    assert.equal(authRecords(k, 'TOKEN_ISSUED').at(-1)?.grant_type, 'authorization_code');
  });

  it('keeps the registered redirect URI query and escapes everything it shows', async () => {
    const { url } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: WEB_REDIRECT });
    const page = await k.fetch(url);
    const html = await page.text();
    assert.ok(!html.includes('<script>'), 'the redirect URI is HTML-escaped');
    assert.ok(html.includes('&#60;script&#62;'));
    const login = await submitLogin(k, url, client());
    const location = new URL(login.location ?? '');
    assert.equal(location.origin + location.pathname, 'https://agent.example.com/cb');
    assert.equal(location.searchParams.get('tenant'), 'a');
    assert.ok(location.searchParams.get('code'));
  });

  it('refuses a wrong PKCE verifier (invalid_grant), and the code is spent', async () => {
    const { res, code, verifier, redirect } = await exchange((p) => ({
      ...p,
      code_verifier: pkcePair().verifier,
    }));
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_grant');
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'pkce_failed');
    const retry = await postForm(
      k,
      '/token',
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect },
      { authorization: basicAuth('noc-agent', secret) },
    );
    assert.equal(retry.status, 400);
  });

  it('refuses a reused code and revokes what its first use obtained', async () => {
    const { res, code, verifier, redirect } = await exchange();
    const first = (await res.json()) as { access_token: string; refresh_token: string };
    assert.equal((await getStatus(k, first.access_token)).status, 200);
    const again = await postForm(
      k,
      '/token',
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect },
      { authorization: basicAuth('noc-agent', secret) },
    );
    assert.equal(again.status, 400);
    assert.equal(((await again.json()) as { error: string }).error, 'invalid_grant');
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'code_reused');
    assert.equal(authRecords(k, 'TOKEN_REVOKED').at(-1)?.reason, 'code_reused');
    assert.equal((await getStatus(k, first.access_token)).body.error, 'AUTH_REVOKED');
    const refresh = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { authorization: basicAuth('noc-agent', secret) },
    );
    assert.equal(refresh.status, 400);
  });

  it('refuses a token request whose redirect_uri differs from the authorization request', async () => {
    const { res } = await exchange((p) => ({ ...p, redirect_uri: 'http://127.0.0.1:43211/callback' }));
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_grant');
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'redirect_uri_mismatch');
  });

  it('refuses a code presented by another client', async () => {
    const { url, verifier } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT });
    const login = await submitLogin(k, url, client());
    const code = new URL(login.location ?? '').searchParams.get('code') ?? '';
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT },
      { authorization: basicAuth('auditor1', clientFiles(k.stateDir, 'auditor1').secret) },
    );
    assert.equal(res.status, 400);
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'code_client_mismatch');
  });

  it('shows an error (never redirects) for a foreign redirect URI or an unknown client', async () => {
    for (const [params, reason] of [
      [{ client_id: 'noc-agent', redirect_uri: 'https://evil.example/cb' }, 'redirect_uri_not_registered'],
      [{ client_id: 'noc-agent', redirect_uri: 'http://127.0.0.1:9/other' }, 'redirect_uri_not_registered'],
      [{ client_id: 'noc-agent', redirect_uri: 'https://audit.example/cb' }, 'redirect_uri_not_registered'],
      [{ client_id: 'ghost', redirect_uri: REDIRECT }, 'unknown_client'],
    ] as const) {
      const res = await k.fetch(authorizeUrl(k, params).url, { redirect: 'manual' });
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.headers.get('location'), null);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, reason);
    }
  });

  it('redirects with invalid_request for plain or missing PKCE, audited', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge_method: 'plain' }, 'code_challenge_method must be S256'],
      [{ code_challenge_method: undefined }, 'code_challenge_method must be S256'],
      [{ code_challenge: undefined }, 'code_challenge is required'],
      [{ code_challenge: 'short' }, 'not an S256 challenge'],
    ];
    for (const [tweak, message] of cases) {
      const { url } = authorizeUrl(k, {
        client_id: 'noc-agent',
        redirect_uri: REDIRECT,
        state: 's9',
        ...tweak,
      });
      const res = await k.fetch(url, { redirect: 'manual' });
      assert.equal(res.status, 302, JSON.stringify(tweak));
      const loc = new URL(res.headers.get('location') ?? '');
      assert.equal(loc.searchParams.get('error'), 'invalid_request');
      assert.match(loc.searchParams.get('error_description') ?? '', new RegExp(message));
      assert.equal(loc.searchParams.get('state'), 's9');
      assert.equal(loc.searchParams.get('iss'), k.url);
      assert.equal(loc.searchParams.get('code'), null);
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'authorize_invalid_request');
    }
    const wrongType = await k.fetch(
      authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT, response_type: 'token' }).url,
      {
        redirect: 'manual',
      },
    );
    assert.equal(
      new URL(wrongType.headers.get('location') ?? '').searchParams.get('error'),
      'unsupported_response_type',
    );
  });

  it('serves a self-contained page under a strict CSP', async () => {
    const res = await k.fetch(
      authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: 'http://127.0.0.1:5555/callback' }).url,
    );
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /style-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:5555(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.ok(!/(src|href)=/i.test(html), 'no external or linked assets');
    assert.ok(!/<script/i.test(html), 'no script at all');
    assert.ok(
      html.includes('noc-agent') && html.includes('http://127.0.0.1:5555/callback'),
      'shows client and redirect',
    );
    assert.match(
      res.headers.get('set-cookie') ?? '',
      /^__Host-ucmcp-login=[^;]+; path=\/; samesite=strict; secure; httponly$/,
    );
  });

  it('re-shows the form after a wrong secret, issues no code, and counts the failure', async () => {
    const { url } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT });
    const res = await submitLogin(k, url, { client_id: 'noc-agent', client_secret: 'guess' });
    assert.equal(res.status, 200);
    assert.equal(res.location, null);
    assert.match(res.html, /The client secret is not correct/);
    assert.match(res.html, /name="csrf" value="[^"]+"/, 'a fresh form');
    const rec = authRecords(k, 'AUTH_FAILED').at(-1);
    assert.equal(rec?.reason, 'bad_client_credentials');
    assert.equal(rec?.path, '/authorize');
  });

  it('honours Deny with access_denied', async () => {
    const { url } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT, state: 'd1' });
    const res = await submitLogin(k, url, { client_id: 'noc-agent', client_secret: '', decision: 'deny' });
    const loc = new URL(res.location ?? '');
    assert.equal(loc.searchParams.get('error'), 'access_denied');
    assert.equal(loc.searchParams.get('state'), 'd1');
  });

  it('refuses a form without its browser cookie, a replayed form, and a made-up CSRF token', async () => {
    const { url } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT });
    const page = await k.fetch(url);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const fields = { csrf, decision: 'approve', ...client() };
    const noCookie = await postForm(k, '/authorize', fields);
    assert.equal(noCookie.status, 400);
    // The failed attempt used up the token: even with the right cookie it is gone.
    const replay = await postForm(k, '/authorize', fields, { cookie });
    assert.equal(replay.status, 400);
    const madeUp = await postForm(k, '/authorize', { ...fields, csrf: 'x'.repeat(43) }, { cookie });
    assert.equal(madeUp.status, 400);
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'invalid_csrf');

    const good = await k.fetch(url);
    const csrf2 = /name="csrf" value="([^"]+)"/.exec(await good.text())?.[1] ?? '';
    const cookie2 = (good.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const ok = await postForm(k, '/authorize', { ...fields, csrf: csrf2 }, { cookie: cookie2 });
    assert.equal(ok.status, 302);
    const again = await postForm(k, '/authorize', { ...fields, csrf: csrf2 }, { cookie: cookie2 });
    assert.equal(again.status, 400, 'a CSRF token works once');
  });

  it('refuses a form posted from a foreign origin', async () => {
    const { url } = authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT });
    const page = await k.fetch(url);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const res = await postForm(
      k,
      '/authorize',
      { csrf, ...client() },
      { cookie, origin: 'https://evil.example' },
    );
    assert.equal(res.status, 403);
  });
});
