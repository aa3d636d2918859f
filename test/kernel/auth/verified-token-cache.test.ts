import assert from 'node:assert/strict';
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { AccessTokens, TokenRejected } from '../../../kernel/auth/access-tokens.ts';
import { IssuedTokenLedger } from '../../../kernel/auth/issued-ledger.ts';
import { oauthUrls, type OAuthUrls } from '../../../kernel/auth/urls.ts';
import {
  VerifiedTokenCache,
  digestOf,
  type VerificationContext,
} from '../../../kernel/auth/verified-token-cache.ts';
import type { ServerKeys } from '../../../kernel/keys/rsa-keys.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const T0 = Date.parse('2030-01-01T00:00:00Z');

async function serverKeys(slot: string): Promise<ServerKeys> {
  const { privatePem } = cachedRsaKeyPair(slot);
  const privateKey = createPrivateKey(privatePem);
  const publicKey = createPublicKey(privateKey);
  const kid = await calculateJwkThumbprint(await exportJWK(publicKey), 'sha256');
  return { privateKey, publicKey, kid, source: 'verified' };
}

function context(over: Partial<VerificationContext> = {}): VerificationContext {
  return {
    key: createPublicKey(cachedRsaKeyPair().publicPem),
    kid: 'kid-1',
    issuer: 'https://127.0.0.1:1',
    audience: 'https://127.0.0.1:1/mcp',
    ...over,
  };
}

function claims(n: number, exp: number): { n: number; exp: number } {
  return { n, exp };
}

describe('VerifiedTokenCache', () => {
  const ctx = context();

  it('keys entries by the SHA-256 of the token, never the token', () => {
    const cache = new VerifiedTokenCache<{ n: number; exp: number }>(() => T0);
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJub2MtYWdlbnQifQ.c2lnbmF0dXJl';
    assert.equal(cache.get(token, ctx), undefined);
    cache.set(token, ctx, claims(1, T0 / 1000 + 60));
    const [key] = cache.digests();
    assert.equal(key, createHash('sha256').update(token).digest('base64url'));
    assert.equal(key, digestOf(token));
    for (const part of token.split('.')) assert.ok(!String(key).includes(part));
    assert.deepEqual(cache.get(token, ctx), claims(1, T0 / 1000 + 60));
  });

  it('serves an entry until exp and never at or after it', () => {
    let now = T0;
    const cache = new VerifiedTokenCache<{ n: number; exp: number }>(() => now);
    const exp = T0 / 1000 + 60;
    cache.set('t', ctx, claims(1, exp));
    now = exp * 1000 - 1;
    assert.ok(cache.get('t', ctx));
    now = exp * 1000;
    assert.equal(cache.get('t', ctx), undefined);
    assert.equal(cache.size, 0, 'dropped once expired');
    cache.set('late', ctx, claims(2, exp));
    assert.equal(cache.size, 0, 'an already expired result is not stored');
  });

  it('never holds more than its bound under a flood of distinct tokens, least recently used out first', () => {
    const cache = new VerifiedTokenCache<{ n: number; exp: number }>(() => T0, 50);
    const exp = T0 / 1000 + 600;
    cache.set('keep', ctx, claims(-1, exp));
    for (let i = 0; i < 500; i++) {
      cache.set(`flood-${i}`, ctx, claims(i, exp));
      assert.ok(cache.size <= 50);
      if (i % 10 === 0) assert.ok(cache.get('keep', ctx), 'a token in use stays');
    }
    assert.equal(cache.size, 50);
    assert.equal(cache.get('flood-0', ctx), undefined);
    assert.ok(cache.get('flood-499', ctx));
  });

  it('empties itself when the key, kid, issuer or audience changes', () => {
    const cache = new VerifiedTokenCache<{ n: number; exp: number }>(() => T0);
    const exp = T0 / 1000 + 60;
    const changes: Partial<VerificationContext>[] = [
      { key: createPublicKey(cachedRsaKeyPair('second').publicPem) },
      { kid: 'kid-2' },
      { issuer: 'https://127.0.0.1:2' },
      { audience: 'https://127.0.0.1:2/mcp' },
    ];
    for (const change of changes) {
      cache.get('t', ctx);
      cache.set('t', ctx, claims(1, exp));
      assert.ok(cache.get('t', ctx));
      assert.equal(cache.get('t', context({ ...ctx, ...change })), undefined, JSON.stringify(change));
      assert.equal(cache.size, 0);
      assert.equal(cache.get('t', ctx), undefined, 'nothing of the old context comes back');
    }
  });

  it('drops a result verified under a context replaced meanwhile', () => {
    const cache = new VerifiedTokenCache<{ n: number; exp: number }>(() => T0);
    const before = context({ kid: 'old' });
    assert.equal(cache.get('t', before), undefined);
    // Another request sees the new key while this one was still verifying with the old.
    assert.equal(cache.get('u', context({ kid: 'new' })), undefined);
    cache.set('t', before, claims(1, T0 / 1000 + 60));
    assert.equal(cache.size, 0);
  });
});

describe('AccessTokens with the verified-token cache', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  let now = T0;
  let urls: OAuthUrls = oauthUrls('https://127.0.0.1:8443');
  const ledger = new IssuedTokenLedger(
    (client) => join(state.dir, `${client}.json`),
    () => now,
  );

  async function setup(): Promise<{ keys: ServerKeys; tokens: AccessTokens }> {
    now = T0;
    urls = oauthUrls('https://127.0.0.1:8443');
    const keys = await serverKeys('default');
    return {
      keys,
      tokens: new AccessTokens(
        keys,
        () => urls,
        ledger,
        () => now,
      ),
    };
  }

  async function rejection(p: Promise<unknown>): Promise<TokenRejected> {
    try {
      await p;
    } catch (err) {
      if (err instanceof TokenRejected) return err;
      throw err;
    }
    assert.fail('the token was accepted');
  }

  it('caches a verified token by digest, returns equal claims, and never caches a refusal', async () => {
    const { tokens } = await setup();
    const { token, jti } = await tokens.issue('noc-agent', 'mcp', 600);
    const first = await tokens.verify(token);
    assert.equal(first.jti, jti);
    assert.deepEqual(tokens.verified.digests(), [digestOf(token)]);
    const again = await tokens.verify(token);
    assert.deepEqual(again, first);
    again.sub = 'someone-else';
    assert.equal((await tokens.verify(token)).sub, 'noc-agent', 'a caller cannot alter the cached claims');

    const [h, p, s] = token.split('.') as [string, string, string];
    const tampered = `${h}.${p}.${s.slice(0, -4)}${s.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    assert.equal((await rejection(tokens.verify(tampered))).reason, 'bad_signature');
    assert.equal((await rejection(tokens.verify(tampered))).reason, 'bad_signature');
    assert.equal(tokens.verified.size, 1, 'failures are not cached');
  });

  it('leaves expiry to full verification from exp on: same outcome as without the cache', async () => {
    const { tokens } = await setup();
    const { token, exp } = await tokens.issue('noc-agent', 'mcp', 60);
    await tokens.verify(token);
    now = exp * 1000 - 1;
    await tokens.verify(token);
    assert.equal(tokens.verified.size, 1);
    now = exp * 1000;
    await tokens.verify(token); // within the clock tolerance, as before: verified again, not served
    assert.equal(tokens.verified.size, 0, 'not stored again once at exp');
    now = (exp + 30) * 1000;
    const r = await rejection(tokens.verify(token));
    assert.equal(r.status, 'AUTH_EXPIRED');
  });

  it('refuses a cached token once the server key is replaced in-process, and re-verifies under the same key', async () => {
    const { keys, tokens } = await setup();
    const { token } = await tokens.issue('noc-agent', 'mcp', 600);
    await tokens.verify(token);
    assert.equal(tokens.verified.size, 1);

    // The same key loaded again (a new KeyObject): the cache empties, the token verifies afresh.
    keys.publicKey = createPublicKey(cachedRsaKeyPair('default').publicPem);
    assert.equal((await tokens.verify(token)).sub, 'noc-agent');
    assert.equal(tokens.verified.size, 1);

    // Rotation: the kernel trusts only the current key, so the cached token is refused.
    Object.assign(keys, await serverKeys('second'));
    const r = await rejection(tokens.verify(token));
    assert.equal(r.reason, 'unknown_kid');
    assert.equal(tokens.verified.size, 0);
    const fresh = await tokens.issue('noc-agent', 'mcp', 600);
    assert.equal((await tokens.verify(fresh.token)).jti, fresh.jti);
  });

  it('refuses a cached token once the issuer changes', async () => {
    const { tokens } = await setup();
    const { token } = await tokens.issue('noc-agent', 'mcp', 600);
    await tokens.verify(token);
    urls = oauthUrls('https://127.0.0.1:9443');
    assert.equal((await rejection(tokens.verify(token))).reason, 'wrong_issuer');
  });
});
