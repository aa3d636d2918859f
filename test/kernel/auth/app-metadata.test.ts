import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_CLIENT_NAME_CHARS, validateAppMetadata } from '../../../kernel/auth/app-metadata.ts';
import { cacheSeconds, clientIdUrlProblem } from '../../../kernel/auth/client-metadata-document.ts';
import { redirectUriArbitrary } from '../../helpers/redirect-uris.ts';

describe('application metadata', () => {
  it('defaults to a public authorization-code client and keeps only what it needs', () => {
    const r = validateAppMetadata({
      redirect_uris: ['http://127.0.0.1/cb', 'http://127.0.0.1/cb', 'https://app.example/cb'],
      client_name: '  Claude Code  ',
      jwks_uri: 'https://ignored.example/jwks',
    });
    assert.deepEqual(r, {
      ok: true,
      metadata: {
        client_name: 'Claude Code',
        redirect_uris: ['http://127.0.0.1/cb', 'https://app.example/cb'],
        grant_types: ['authorization_code'],
      },
    });
  });

  it('bounds the name in characters, not UTF-16 units', () => {
    const emoji = '\u{1F600}'.repeat(MAX_CLIENT_NAME_CHARS);
    assert.equal(
      validateAppMetadata({ redirect_uris: ['https://a.example/cb'], client_name: emoji }).ok,
      true,
    );
    assert.equal(
      validateAppMetadata({ redirect_uris: ['https://a.example/cb'], client_name: `${emoji}x` }).ok,
      false,
    );
  });

  it('whatever it is given, answers ok or a problem, never throws; redirect URIs kept are acceptable ones', () => {
    fc.assert(
      fc.property(fc.array(redirectUriArbitrary(), { maxLength: 3 }), fc.anything(), (uris, name) => {
        const r = validateAppMetadata({ redirect_uris: uris, client_name: name });
        if (r.ok) for (const u of r.metadata.redirect_uris) assert.match(u, /^https?:\/\//i);
        else assert.ok(['invalid_redirect_uri', 'invalid_client_metadata'].includes(r.problem.error));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.anything(), (m) => void validateAppMetadata(m)),
      { numRuns: 500 },
    );
  });
});

describe('client ID metadata document URLs and caching', () => {
  it('accepts https URLs with a path only', () => {
    assert.equal(clientIdUrlProblem('https://app.example/oauth/client.json'), null);
    assert.equal(clientIdUrlProblem('https://app.example:8443/c?v=1'), null);
    for (const bad of [
      'http://app.example/client.json',
      'https://app.example',
      'https://app.example/',
      'https://app.example/a/./b',
      'https://app.example/a/..',
      'https://app.example/%2E%2E/x',
      'https://u:p@app.example/c',
      'https://app.example/c#x',
      'https://app.example:0/c',
      `https://app.example/${'a'.repeat(2100)}`,
    ])
      assert.notEqual(clientIdUrlProblem(bad), null, bad);
  });

  it('keeps a document for its max-age, at most the cap, never with no-store or no-cache', () => {
    assert.equal(cacheSeconds('max-age=60', 3600), 60);
    assert.equal(cacheSeconds('public, max-age=86400', 3600), 3600);
    assert.equal(cacheSeconds('no-store', 3600), 0);
    assert.equal(cacheSeconds('max-age=60, no-cache', 3600), 0);
    assert.equal(cacheSeconds(undefined, 3600), 300);
    assert.equal(cacheSeconds(undefined, 60), 60);
    assert.equal(cacheSeconds('max-age=60', 0), 0);
    assert.equal(cacheSeconds('s-maxage=10', 3600), 300);
  });
});
