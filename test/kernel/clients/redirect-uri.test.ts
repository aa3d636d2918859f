import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseAuthClients } from '../../../kernel/clients/auth-clients.ts';
import { matchRedirectUri, redirectUriProblem } from '../../../kernel/clients/redirect-uri.ts';
import { ConfigError } from '../../../kernel/errors/index.ts';
import { fuzzParameters } from '../../reliability/fuzz/support/fuzz-config.ts';
import {
  MALFORMED_REDIRECT_URIS,
  WELL_FORMED_REDIRECT_URIS,
  redirectUriArbitrary,
} from '../../helpers/redirect-uris.ts';

describe('redirect URIs', () => {
  for (const [uri, reason] of MALFORMED_REDIRECT_URIS) {
    it(`refuses ${JSON.stringify(uri.slice(0, 60))} (${reason.source})`, () => {
      assert.match(redirectUriProblem(uri) ?? 'accepted', reason);
      assert.equal(matchRedirectUri(uri, ['http://127.0.0.1/callback', uri]), false);
    });
  }

  it('accepts well-formed unusual ones', () => {
    for (const uri of WELL_FORMED_REDIRECT_URIS) {
      assert.equal(redirectUriProblem(uri), null, uri);
      assert.doesNotThrow(() => new URL(uri));
    }
    assert.ok(matchRedirectUri('http://127.0.0.1:65535/callback', ['http://127.0.0.1/callback']));
    assert.ok(matchRedirectUri('http://127.0.0.1:1/callback', ['http://127.0.0.1:9/callback']));
  });

  // RFC 8252 sections 7.3 and 8.3: Claude Code asks for http://localhost:<port>/callback whatever was
  // registered; the three loopback spellings are one, on any port; path and query are compared as written.
  const LOOPBACK_TABLE: [requested: string, registered: string, matches: boolean][] = [
    ['http://localhost:5555/callback', 'http://127.0.0.1/callback', true],
    ['http://[::1]:5555/callback', 'http://127.0.0.1/callback', true],
    ['http://127.0.0.1:5555/callback', 'http://localhost/callback', true],
    ['http://localhost/callback', 'http://[::1]:8080/callback', true],
    ['http://LOCALHOST:5555/callback', 'http://127.0.0.1/callback', true],
    ['http://localhost:5555/callback?x=1', 'http://127.0.0.1/callback?x=1', true],
    ['http://localhost:5555', 'http://127.0.0.1/', true],
    ['http://localhost:5555/callback/', 'http://127.0.0.1/callback', false],
    ['http://localhost:5555/Callback', 'http://127.0.0.1/callback', false],
    ['http://localhost:5555/callback?x=1', 'http://127.0.0.1/callback', false],
    ['http://localhost:5555/callback', 'http://127.0.0.2/callback', false],
    ['http://localhost:5555/callback', 'https://127.0.0.1/callback', false],
    ['http://localhost.example.com:5555/callback', 'http://127.0.0.1/callback', false],
    ['https://localhost:5555/callback', 'http://127.0.0.1/callback', false],
    ['http://localhost:0/callback', 'http://127.0.0.1/callback', false],
    ['https://agent.example.com/cb', 'https://agent.example.com/cb', true],
    ['https://agent.example.com:8443/cb', 'https://agent.example.com/cb', false],
    ['https://agent.example.com/cb/', 'https://agent.example.com/cb', false],
    ['https://AGENT.example.com/cb', 'https://agent.example.com/cb', false],
    ['com.example.app:/cb', 'com.example.app:/cb', true],
    ['com.example.app:/cb2', 'com.example.app:/cb', false],
  ];
  for (const [requested, registered, matches] of LOOPBACK_TABLE) {
    it(`${matches ? 'matches' : 'does not match'} ${requested} against ${registered}`, () => {
      assert.equal(matchRedirectUri(requested, [registered]), matches);
    });
  }

  it('refuses a malformed one in AUTH_CLIENTS with a ConfigError, the entry shown bounded', () => {
    for (const [uri] of MALFORMED_REDIRECT_URIS.filter(([u]) => u !== '' && !/[,|]/.test(u))) {
      assert.throws(
        () => parseAuthClients(`a:admin:cucm:${uri}`, new Set(['admin'])),
        (e: unknown) => e instanceof ConfigError && e.message.length < 600,
        uri.slice(0, 60),
      );
    }
  });

  it('property: any string gets a reason or null, never an exception; what passes can be redirected to', () => {
    const registered = ['http://127.0.0.1/callback', 'https://agent.example.com/cb'];
    fc.assert(
      fc.property(fc.oneof(redirectUriArbitrary(), fc.string({ unit: 'binary', maxLength: 300 })), (uri) => {
        const problem = redirectUriProblem(uri);
        const matched = matchRedirectUri(uri, registered);
        if (problem !== null) {
          assert.equal(matched, false);
          return;
        }
        const url = new URL(uri);
        url.searchParams.set('code', 'x');
        assert.ok(url.port === '' || (Number(url.port) >= 1 && Number(url.port) <= 65_535), uri);
      }),
      fuzzParameters(3000, 71),
    );
  });
});
