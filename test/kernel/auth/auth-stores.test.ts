import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuthorizationCodes, CODE_TTL_MS } from '../../../kernel/auth/authorization-codes.ts';
import {
  LOGIN_TTL_MS,
  MAX_PENDING,
  PendingAuthorizations,
} from '../../../kernel/auth/pending-authorizations.ts';
import { verifyS256 } from '../../../kernel/auth/pkce.ts';
import { openRefreshTokenStore } from '../../../kernel/auth/refresh-tokens.ts';
import { openRevocationList } from '../../../kernel/auth/revocation-list.ts';
import { MemoryDocumentStore } from '../../../kernel/store/document-store.ts';
import { StartupError } from '../../../kernel/errors/index.ts';
import { pkcePair } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const binding = {
  client: 'c1',
  redirectUri: 'http://127.0.0.1/cb',
  codeChallenge: pkcePair().challenge,
  resource: null,
  scope: 'mcp',
  app: null,
};

describe('authorization codes', () => {
  it('live one minute at most', async () => {
    let now = 1_000_000;
    const codes = new AuthorizationCodes(new MemoryDocumentStore({}), () => now);
    assert.ok(CODE_TTL_MS <= 60_000);
    const code = await codes.create(binding);
    now += CODE_TTL_MS;
    assert.deepEqual(await codes.redeem(code), { ok: false, reason: 'expired' });
    const fresh = await codes.create(binding);
    now += CODE_TTL_MS - 1;
    const r = await codes.redeem(fresh);
    assert.equal(r.ok, true);
  });

  it('are single use, even under concurrent redemption', async () => {
    const codes = new AuthorizationCodes();
    const code = await codes.create(binding);
    const results = await Promise.all([codes.redeem(code), codes.redeem(code), codes.redeem(code)]);
    assert.equal(results.filter((r) => r.ok).length, 1);
    assert.deepEqual(
      results.filter((r) => !r.ok).map((r) => (r as { reason: string }).reason),
      ['reused', 'reused'],
    );
    assert.deepEqual(await codes.redeem('not-a-code'), { ok: false, reason: 'unknown' });
  });

  it('are stored only as digests', async () => {
    const store = new MemoryDocumentStore<Record<string, unknown>>({});
    const codes = new AuthorizationCodes(store as never);
    const code = await codes.create(binding);
    assert.ok(!JSON.stringify(store.read()).includes(code));
  });
});

describe('pending logins', () => {
  it('expire, work once, and only with the browser cookie', async () => {
    let now = 0;
    const pending = new PendingAuthorizations(new MemoryDocumentStore({}), () => now);
    const request = { ...binding, state: 's' };
    const a = await pending.create(request);
    assert.equal(await pending.take(a.csrf, 'wrong-cookie'), null);
    assert.equal(await pending.take(a.csrf, a.browser), null, 'a failed attempt used it up');
    const b = await pending.create(request);
    assert.deepEqual(await pending.take(b.csrf, b.browser), request);
    assert.equal(await pending.take(b.csrf, b.browser), null);
    const c = await pending.create(request);
    now += LOGIN_TTL_MS + 1;
    assert.equal(await pending.take(c.csrf, c.browser), null);
  });
});

describe('pending logins under a flood of GET /authorize', () => {
  it('keep at most a fixed number (MAX_PENDING in production), the newest', async () => {
    assert.equal(MAX_PENDING, 10_000);
    let now = 0;
    const store = new MemoryDocumentStore({});
    const pending = new PendingAuthorizations(store, () => now++, 50);
    const request = { ...binding, state: null };
    const first = await pending.create(request);
    const second = await pending.create(request);
    for (let i = 0; i < 49; i++) await pending.create(request);
    assert.equal(Object.keys(store.read()).length, 50);
    assert.equal(await pending.take(first.csrf, first.browser), null, 'the oldest gave way');
    assert.ok(await pending.take(second.csrf, second.browser), 'the next one is still there');
  });
});

describe('PKCE S256', () => {
  it('accepts only the verifier of the challenge', () => {
    const { verifier, challenge } = pkcePair();
    assert.ok(verifyS256(verifier, challenge));
    assert.ok(!verifyS256(pkcePair().verifier, challenge));
    assert.ok(!verifyS256(challenge, challenge), 'plain (verifier = challenge) is not S256');
    assert.ok(!verifyS256('short', challenge));
  });
});

describe('revocation list (secrets/token_blacklist.json)', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  const path = join(state.dir, 'token_blacklist.json');

  it('persists jti -> exp atomically and prunes entries whose token has expired', async () => {
    let now = 1_000_000_000;
    const list = openRevocationList(path, () => now);
    const nowS = now / 1000;
    await list.revoke([
      { jti: 'a', exp: nowS + 10 },
      { jti: 'b', exp: nowS + 1000 },
      { jti: 'dead', exp: nowS - 1 },
    ]);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { a: nowS + 10, b: nowS + 1000 });
    const reopened = openRevocationList(path, () => now);
    assert.ok(reopened.isRevoked('a') && reopened.isRevoked('b') && !reopened.isRevoked('dead'));
    now += 11_000;
    assert.equal(await reopened.prune(), 1);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { b: nowS + 1000 });
  });

  it('refuses to start on a damaged list rather than forget revocations', () => {
    writeFileSync(path, JSON.stringify({ a: 'soon' }));
    assert.throws(() => openRevocationList(path), StartupError);
    writeFileSync(path, '{');
    assert.throws(() => openRevocationList(path), /does not parse/);
  });
});

describe('refresh tokens (secrets/refresh_tokens.json)', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('stores digests only, refuses tokens of a rotated key and expired ones', async () => {
    let now = 5_000_000;
    const path = join(state.dir, 'refresh.json');
    const store = openRefreshTokenStore(path, () => now);
    const access = { jti: 'j1', exp: 99 };
    const t = await store.issue({ client: 'c1', scope: 'mcp', kid: 'k1', ttlSeconds: 60, access });
    assert.ok(existsSync(path) && !readFileSync(path, 'utf8').includes(t.token));
    assert.deepEqual(await store.redeem(t.token, { client: 'c1' }, 'k2'), {
      ok: false,
      reason: 'rotated_key',
    });
    const t2 = await store.issue({ client: 'c1', scope: 'mcp', kid: 'k1', ttlSeconds: 60, access });
    now += 61_000;
    assert.deepEqual(await store.redeem(t2.token, { client: 'c1' }, 'k1'), { ok: false, reason: 'expired' });
  });
});
