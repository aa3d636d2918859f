// Dynamic client registration (RFC 7591) over HTTPS: what is accepted, every kind of bad metadata
// refused with the RFC's errors, the body bounded, the number of applications bounded (refused when
// full, nothing evicted), unused ones expired by the housekeeping, hostile names escaped.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { registerApp } from '../../../helpers/oauth-apps.ts';
import { authorizeUrl, authRecords } from '../../../helpers/oauth.ts';
import { MALFORMED_REDIRECT_URIS } from '../../../helpers/redirect-uris.ts';

const CALLBACK = 'http://127.0.0.1/callback';
const DAY = 86_400_000;

describe('dynamic client registration (RFC 7591)', () => {
  let k: TestKernel;
  let now = Date.now();
  const appsFile = () => join(k.stateDir, 'secrets', 'oauth_apps.json');
  const registered = () => JSON.parse(readFileSync(appsFile(), 'utf8')) as Record<string, unknown>;
  const authorizePage = async (clientId: string) => {
    const res = await k.fetch(
      authorizeUrl(k, { client_id: clientId, redirect_uri: 'http://localhost:5555/callback' }).url,
    );
    return { status: res.status, html: await res.text() };
  };

  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BCRYPT_COST: '4',
        OAUTH_MAX_REGISTERED_CLIENTS: '3',
        OAUTH_REGISTRATIONS_PER_IP: '1000',
        OAUTH_REGISTRATION_IDLE_DAYS: '1',
      },
      clock: () => now,
    });
  });
  after(async () => {
    await k.stop();
  });

  it('registers a public client: client_id, no secret, the metadata as kept; persisted 0600 and audited', async () => {
    const r = await registerApp(k, {
      client_name: 'Claude Code',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'mcp anything-else',
      logo_uri: 'https://tracker.example/pixel.png',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.headers.get('cache-control'), 'no-store');
    const id = r.body.client_id as string;
    assert.match(id, /^app\.[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(
      { ...r.body, client_id: 'x', client_id_issued_at: 0 },
      {
        client_id: 'x',
        client_id_issued_at: 0,
        client_name: 'Claude Code',
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'mcp',
      },
    );
    assert.equal(r.body.client_id_issued_at, Math.floor(now / 1000));
    assert.equal(statSync(appsFile()).mode & 0o777, 0o600);
    assert.ok(registered()[id]);
    assert.ok(!readFileSync(appsFile(), 'utf8').includes('tracker.example'), 'unused metadata is not kept');
    const audit = authRecords(k, 'APP_REGISTERED').at(-1);
    assert.equal(audit?.azp, id);
    assert.equal(audit?.client_app, 'Claude Code');
    // Claude Code's redirect (localhost, another port) matches the loopback URI registered.
    assert.equal((await authorizePage(id)).status, 200);
  });

  it('refuses bad metadata with RFC 7591 errors (400), registering nothing', async () => {
    const base = { client_name: 'x', redirect_uris: [CALLBACK] };
    const cases: [string, unknown, string][] = [
      ['no redirect_uris', { client_name: 'x' }, 'invalid_redirect_uri'],
      ['empty redirect_uris', { redirect_uris: [] }, 'invalid_redirect_uri'],
      ['a redirect URI not a string', { redirect_uris: [42] }, 'invalid_redirect_uri'],
      [
        'eleven redirect URIs',
        { redirect_uris: Array.from({ length: 11 }, (_, i) => `${CALLBACK}${i}`) },
        'invalid_redirect_uri',
      ],
      ['a private-use scheme', { redirect_uris: ['com.example.app:/cb'] }, 'invalid_redirect_uri'],
      ['http off loopback', { redirect_uris: ['http://agent.example.com/cb'] }, 'invalid_redirect_uri'],
      ...MALFORMED_REDIRECT_URIS.map(([uri]): [string, unknown, string] => [
        `malformed ${JSON.stringify(uri).slice(0, 40)}`,
        { redirect_uris: [uri] },
        'invalid_redirect_uri',
      ]),
      [
        'a confidential client',
        { ...base, token_endpoint_auth_method: 'client_secret_basic' },
        'invalid_client_metadata',
      ],
      [
        'private_key_jwt',
        { ...base, token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
      ['a client_secret', { ...base, client_secret: 'mine' }, 'invalid_client_metadata'],
      ['client_credentials', { ...base, grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      ['implicit', { ...base, grant_types: ['authorization_code', 'implicit'] }, 'invalid_client_metadata'],
      ['no authorization_code', { ...base, grant_types: ['refresh_token'] }, 'invalid_client_metadata'],
      ['response type token', { ...base, response_types: ['token'] }, 'invalid_client_metadata'],
      ['a long name', { ...base, client_name: 'n'.repeat(101) }, 'invalid_client_metadata'],
      ['a NUL in the name', { ...base, client_name: 'Claude\u0000Code' }, 'invalid_client_metadata'],
      ['a newline in the name', { ...base, client_name: 'Claude\nCode' }, 'invalid_client_metadata'],
      [
        'a bidi override in the name',
        { ...base, client_name: 'Claude \u202eedoC' },
        'invalid_client_metadata',
      ],
      ['a zero-width space in the name', { ...base, client_name: 'Clau\u200bde' }, 'invalid_client_metadata'],
      ['a name not a string', { ...base, client_name: ['x'] }, 'invalid_client_metadata'],
      ['a scope not printable', { ...base, scope: 'mcp\u0000' }, 'invalid_client_metadata'],
      ['an array', [base], 'invalid_client_metadata'],
      ['null', null, 'invalid_client_metadata'],
      ['a string', 'register me', 'invalid_client_metadata'],
    ];
    const before = Object.keys(registered()).length;
    for (const [what, body, error] of cases) {
      const r = await registerApp(k, typeof body === 'string' ? JSON.stringify(body) : body);
      assert.equal(r.status, 400, what);
      assert.equal(r.body.error, error, `${what}: ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error_description, 'string', what);
    }
    for (const [what, raw, type] of [
      ['not JSON', '{"redirect_uris": [', 'application/json'],
      ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json'],
      ['a form', 'redirect_uris=http://127.0.0.1/cb', 'application/x-www-form-urlencoded'],
    ] as const) {
      const r = await registerApp(k, raw, { 'content-type': type });
      assert.equal(r.status, 400, what);
      assert.equal(r.body.error, 'invalid_client_metadata', what);
    }
    assert.equal(Object.keys(registered()).length, before);
    const refused = authRecords(k, 'APP_REGISTRATION_REFUSED');
    assert.ok(refused.length >= cases.length + 3);
  });

  it('bounds the body (16 KiB), declared or streamed', async () => {
    const big = { client_name: 'x', redirect_uris: [CALLBACK], padding: 'p'.repeat(20_000) };
    const declared = await registerApp(k, big);
    assert.equal(declared.status, 413);
    assert.equal(declared.body.error, 'invalid_client_metadata');
    const text = JSON.stringify(big);
    const streamed = await k.fetch(`${k.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < text.length; i += 1000)
            c.enqueue(new TextEncoder().encode(text.slice(i, i + 1000)));
          c.close();
        },
      }),
      duplex: 'half',
    } as never);
    assert.equal(streamed.status, 413);
  });

  it('shows an application name on the login page as text, escaped', async () => {
    const r = await registerApp(k, {
      client_name: '<script>alert(1)</script>"\'&',
      redirect_uris: [CALLBACK],
    });
    assert.equal(r.status, 201);
    const page = await authorizePage(r.body.client_id as string);
    assert.equal(page.status, 200);
    assert.ok(!page.html.includes('<script>alert'), 'no markup from the application');
    assert.match(
      page.html,
      /<dd id="app-name">&#60;script&#62;alert\(1\)&#60;\/script&#62;&#34;&#39;&#38;<\/dd>/,
    );
    assert.match(page.html, /registered itself with this server; its name is not verified/);
  });

  it('holds at most OAUTH_MAX_REGISTERED_CLIENTS: the next one is refused, none is evicted', async () => {
    const ids = Object.keys(registered());
    while (Object.keys(registered()).length < 3)
      assert.equal((await registerApp(k, { client_name: 'filler', redirect_uris: [CALLBACK] })).status, 201);
    const full = await registerApp(k, { client_name: 'one too many', redirect_uris: [CALLBACK] });
    assert.equal(full.status, 403);
    assert.equal(full.body.error, 'access_denied');
    assert.match(full.body.error_description as string, /OAUTH_MAX_REGISTERED_CLIENTS.*oauth_apps remove/);
    assert.equal(Object.keys(registered()).length, 3);
    for (const id of ids)
      assert.equal((await authorizePage(id)).status, 200, 'every earlier one still works');
    assert.equal(authRecords(k, 'APP_REGISTRATION_REFUSED').at(-1)?.reason, 'registrations_full');
  });

  it('expires an application unused for OAUTH_REGISTRATION_IDLE_DAYS; the housekeeping removes it, audited', async () => {
    const ids = Object.keys(registered());
    const [kept, ...others] = ids as [string, ...string[]];
    now += DAY / 2;
    assert.equal((await authorizePage(kept)).status, 200, 'a sign-in page counts as use');
    now += DAY / 2 + 60_000;
    for (const id of others) {
      const page = await authorizePage(id);
      assert.equal(page.status, 400, 'expired: not found any more, even before the housekeeping');
      assert.match(page.html, /expired unused or been removed/);
    }
    assert.equal((await authorizePage(kept)).status, 200);
    assert.equal(Object.keys(registered()).length, 3, 'still in the file until the housekeeping');

    await k.kernel.runtime.watchdogs.runNow('auth-housekeeping');
    assert.deepEqual(Object.keys(registered()), [kept]);
    const expired = authRecords(k, 'APP_EXPIRED').map((r) => r.azp);
    assert.deepEqual(expired.sort(), [...others].sort());
    // Room again.
    assert.equal((await registerApp(k, { client_name: 'new', redirect_uris: [CALLBACK] })).status, 201);
  });
});
