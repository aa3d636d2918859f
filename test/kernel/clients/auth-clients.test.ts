import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseAuthClients } from '../../../kernel/clients/auth-clients.ts';
import { readClientSettings } from '../../../kernel/clients/client-settings.ts';
import { matchRedirectUri, redirectUriProblem } from '../../../kernel/clients/redirect-uri.ts';
import { ConfigError } from '../../../kernel/errors/index.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const PROFILES = new Set(['admin', 'operator', 'auditor']);

describe('AUTH_CLIENTS parsing', () => {
  it('reads the three-field form, products joined by +', () => {
    assert.deepEqual(parseAuthClients('noc-agent:operator:cucm+imp+cuc, auditor1:auditor:cucm,', PROFILES), [
      { name: 'noc-agent', profile: 'operator', products: ['cucm', 'imp', 'cuc'], redirectUris: [] },
      { name: 'auditor1', profile: 'auditor', products: ['cucm'], redirectUris: [] },
    ]);
    assert.deepEqual(parseAuthClients('', PROFILES), []);
  });

  it('reads redirect URIs from the optional fourth field, colons and all', () => {
    const [c] = parseAuthClients(
      'desk:admin:cuc:http://127.0.0.1/callback|https://agent.example.com:8443/oauth/cb|com.example.app:/cb',
      PROFILES,
    );
    assert.deepEqual(c?.redirectUris, [
      'http://127.0.0.1/callback',
      'https://agent.example.com:8443/oauth/cb',
      'com.example.app:/cb',
    ]);
  });

  const bad: [string, RegExp][] = [
    ['noc-agent:operator', /entry 1 \("noc-agent:operator"\): expected name:profile:products/],
    ['Noc:operator:cucm', /entry 1 \("Noc:operator:cucm"\): client name must match/],
    ['a:operator:cucm,a:auditor:cuc', /entry 2 \("a:auditor:cuc"\): client "a" is listed twice/],
    [
      'a:root:cucm',
      /entry 1 \("a:root:cucm"\): unknown profile "root" \(profiles\/ has: admin, auditor, operator\)/,
    ],
    ['a:admin:cucm+pbx', /entry 1 .*unknown product "pbx"/],
    ['a:admin:', /entry 1 .*unknown product ""/],
    [
      'a:admin:cucm:http://agent.example.com/cb',
      /redirect URI "http:\/\/agent.example.com\/cb" may use http only on a loopback/,
    ],
    ['a:admin:cucm:https://x.example/cb#frag', /must not contain a fragment/],
    ['a:admin:cucm:javascript:alert(1)', /scheme that is not allowed/],
  ];
  for (const [raw, message] of bad) {
    it(`refuses ${JSON.stringify(raw)} with a ConfigError naming the entry`, () => {
      assert.throws(
        () => parseAuthClients(raw, PROFILES),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
      );
    });
  }
});

describe('redirect URI matching', () => {
  const registered = [
    'http://127.0.0.1/callback',
    'https://agent.example.com/cb',
    'http://[::1]:9000/cb?x=1',
  ];

  it('matches registered URIs exactly', () => {
    assert.ok(matchRedirectUri('https://agent.example.com/cb', registered));
    assert.ok(!matchRedirectUri('https://agent.example.com/cb/', registered));
    assert.ok(!matchRedirectUri('https://agent.example.com:443/cb?x', registered));
    assert.ok(!matchRedirectUri('https://AGENT.example.com/cb', registered));
    assert.ok(!matchRedirectUri('https://evil.example/cb', registered));
  });

  it('matches a loopback redirect on any port and loopback spelling, nothing else about it (RFC 8252)', () => {
    assert.ok(matchRedirectUri('http://127.0.0.1:50123/callback', registered));
    assert.ok(matchRedirectUri('http://127.0.0.1/callback', registered));
    assert.ok(matchRedirectUri('http://[::1]:1/cb?x=1', registered));
    assert.ok(!matchRedirectUri('http://127.0.0.1:50123/callback2', registered));
    assert.ok(!matchRedirectUri('http://127.0.0.1:50123/callback/../callback', registered));
    // RFC 8252 section 8.3: the loopback spellings are alike (Claude Code asks for localhost).
    assert.ok(matchRedirectUri('http://localhost:50123/callback', registered));
    assert.ok(!matchRedirectUri('https://127.0.0.1:50123/callback', registered));
    assert.ok(!matchRedirectUri('http://127.0.0.1.evil.example/callback', registered));
  });

  it('accepts https, loopback http and private-use schemes only', () => {
    assert.equal(redirectUriProblem('https://a.example/cb'), null);
    assert.equal(redirectUriProblem('http://localhost:3000/cb'), null);
    assert.match(redirectUriProblem('data:text/html,hi') ?? '', /scheme/);
    assert.match(redirectUriProblem('/relative') ?? '', /absolute/);
    assert.match(redirectUriProblem('https://user:pw@a.example/') ?? '', /user information/);
  });
});

describe('clients/<name>/client.json', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('reads redirect URIs and narrowing of allowlists and rate limits', () => {
    const path = join(state.dir, 'ok.json');
    writeFileSync(
      path,
      JSON.stringify({
        redirect_uris: ['http://127.0.0.1/cb'],
        allowlists: { axl: { allow: ['get*'], deny: ['executeSQLQuery'] } },
        rateLimits: { cucm: { axl: { limit: 10, windowSeconds: 60 } } },
      }),
    );
    assert.deepEqual(readClientSettings('c1', path), {
      redirectUris: ['http://127.0.0.1/cb'],
      narrowing: {
        allowlists: { axl: { allow: ['get*'], deny: ['executeSQLQuery'] } },
        rateLimits: { cucm: { axl: { limit: 10, windowSeconds: 60 } } },
        readOnly: false,
      },
    });
  });

  it('reads a standing toolset view (toolsets, readOnly)', () => {
    const path = join(state.dir, 'view.json');
    writeFileSync(path, JSON.stringify({ toolsets: ['cucm', 'reports'], readOnly: true }));
    const n = readClientSettings('c1', path).narrowing;
    assert.deepEqual(n.toolsets, ['cucm', 'reports']);
    assert.equal(n.readOnly, true);
  });

  it('treats a missing file as nothing narrowed', () => {
    assert.deepEqual(readClientSettings('c1', join(state.dir, 'absent.json')).narrowing, {
      allowlists: {},
      rateLimits: {},
      readOnly: false,
    });
  });

  const bad: [string, string, RegExp][] = [
    ['not json', '{', /not valid JSON/],
    ['an unknown service', JSON.stringify({ allowlists: { ftp: {} } }), /allowlists/],
    [
      'a zero limit',
      JSON.stringify({ rateLimits: { cucm: { axl: { limit: 0, windowSeconds: 60 } } } }),
      /rateLimits\.cucm\.axl\.limit/,
    ],
    ['an unknown key', JSON.stringify({ redirects: [] }), /redirects|Unrecognized/],
    ['an unknown toolset', JSON.stringify({ toolsets: ['cucm', 'ftp'] }), /toolsets\.1/],
    ['an empty toolset list', JSON.stringify({ toolsets: [] }), /toolsets: names no toolset/],
    ['a readOnly that is not a boolean', JSON.stringify({ readOnly: 'yes' }), /readOnly/],
    ['a bad redirect', JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }), /loopback/],
  ];
  for (const [what, content, message] of bad) {
    it(`refuses ${what} with a ConfigError naming client and file`, () => {
      const path = join(state.dir, 'bad.json');
      writeFileSync(path, content);
      assert.throws(
        () => readClientSettings('c1', path),
        (e: unknown) =>
          e instanceof ConfigError && e.message.includes('client "c1"') && message.test(e.message),
      );
    });
  }
});
