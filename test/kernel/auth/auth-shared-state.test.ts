// The authorization server's state on a shared store (real redis-server), two backends standing for two
// instances: a revocation, a blacklisting, a registered application's removal made through one is in
// force on the other within a second; an authorization code and a login form are used once across
// both; the issued-token ledger is one; the operator commands write through the store; and with the
// store gone the checks on the request path refuse with STATE_STORE_UNAVAILABLE rather than answer from
// what one instance remembers.
import assert from 'node:assert/strict';
import type { KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openAuthorizationCodesOn } from '../../../kernel/auth/authorization-codes.ts';
import { IpBlacklist, openBlacklistStoreOn } from '../../../kernel/auth/ip-blacklist.ts';
import { issuedLedgerOn } from '../../../kernel/auth/issued-ledger.ts';
import { pendingAuthorizationsOn } from '../../../kernel/auth/pending-authorizations.ts';
import { openRegisteredAppsOn } from '../../../kernel/auth/registered-apps.ts';
import { openRevocationListOn } from '../../../kernel/auth/revocation-list.ts';
import { runNamed } from '../../../kernel/cli/dispatch.ts';
import { StateStoreUnavailableError } from '../../../kernel/errors/index.ts';
import { RedisBackend } from '../../../kernel/store/backend/redis-backend.ts';
import { RedisConnection } from '../../../kernel/store/backend/redis-connection.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo } from '../cli/fake-io.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the shared auth state tests: ${skip}`);

const audit = { write: () => undefined } as never;

async function until(what: string, ok: () => boolean, ms = 1000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (ok()) return performance.now() - t0;
    if (performance.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('auth state on a shared store (real redis-server)', { skip }, () => {
  let redis: RedisHandle;
  let one: RedisBackend;
  let two: RedisBackend;
  const state = tempStateDir();
  const file = (name: string): string => join(state.dir, 'secrets', name);

  const backend = async (instance: string): Promise<RedisBackend> =>
    new RedisBackend(
      await RedisConnection.open({
        url: redis.url,
        passwordEnc: '',
        caFile: '',
        timeoutMs: 1000,
        privateKey: undefined as unknown as KeyObject,
      }),
      instance,
    );

  before(async () => {
    redis = await startRedis();
    one = await backend('one');
    two = await backend('two');
    mkdirSync(join(state.dir, 'secrets'), { recursive: true });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await redis?.cleanup();
    state.cleanup();
  });

  it('a token revoked through one instance is refused by the other within 1 s; the file seeds the store', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    writeFileSync(file('token_blacklist.json'), JSON.stringify({ 'revoked-before': exp }));
    const a = await openRevocationListOn(one, file('token_blacklist.json'));
    const b = await openRevocationListOn(two, file('token_blacklist.json'));
    assert.ok(b.isRevoked('revoked-before'), 'the local file of an upgraded installation is kept');
    await a.revoke([{ jti: 'jti-1', exp }]);
    const ms = await until('revocation seen', () => b.isRevoked('jti-1'));
    console.log(`# revocation in force on the other instance after ${ms.toFixed(1)} ms`);
  });

  it('an address blacklisted on one instance is blocked on the other', async () => {
    const settings = { threshold: 2, windowMs: 60_000, durationMs: 600_000 };
    const a = new IpBlacklist(
      await openBlacklistStoreOn(one, file('ip_blacklist.json')),
      one.windows,
      audit,
      settings,
    );
    const b = new IpBlacklist(
      await openBlacklistStoreOn(two, file('ip_blacklist.json')),
      two.windows,
      audit,
      settings,
    );
    await a.recordFailure('192.0.2.7');
    // The failure window is shared too: the second failure, on the other instance, lists the address.
    assert.equal(await b.recordFailure('192.0.2.7'), true);
    await until('blocked on the first', () => a.activeCount() === 1);
    assert.equal((await a.check('192.0.2.7')).blocked, true);
  });

  it('an authorization code is redeemed once across instances, wherever it was issued', async () => {
    const a = await openAuthorizationCodesOn(one);
    const b = await openAuthorizationCodesOn(two);
    const binding = {
      client: 'alice',
      redirectUri: 'http://127.0.0.1/cb',
      codeChallenge: 'c'.repeat(43),
      resource: null,
      scope: 'mcp',
      app: null,
    };
    const code = await a.create(binding);
    const tries = await Promise.all([a.redeem(code), b.redeem(code), a.redeem(code), b.redeem(code)]);
    const won = tries.filter((t) => t.ok);
    assert.equal(won.length, 1, JSON.stringify(tries));
    assert.ok(tries.every((t) => t.ok || t.reason === 'reused'));
    const key = (won[0] as { key: string }).key;
    await (won[0] === tries[0] || won[0] === tries[2] ? a : b).recordIssued(key, { jti: 'j', exp: 1 });
    const again = await b.redeem(code);
    assert.ok(!again.ok && again.reason === 'reused' && again.issued.some((i) => i.jti === 'j'));
  });

  it('a login form sent by one instance is taken once, by any instance', async () => {
    const a = pendingAuthorizationsOn(one);
    const b = pendingAuthorizationsOn(two);
    const request = {
      client: 'alice',
      app: null,
      redirectUri: 'http://127.0.0.1/cb',
      codeChallenge: 'c'.repeat(43),
      resource: null,
      scope: 'mcp',
      state: 's',
    };
    const form = await a.create(request);
    const takes = await Promise.all([b.take(form.csrf, form.browser), a.take(form.csrf, form.browser)]);
    assert.deepEqual(
      takes.filter((t) => t !== null),
      [request],
    );
    const other = await a.create(request);
    assert.equal(await b.take(other.csrf, 'another browser'), null);
    assert.equal(await a.take(other.csrf, other.browser), null, 'a failed attempt used it up');
  });

  it('the issued-token ledger is one; forgetting a purged client empties it everywhere', async () => {
    const pathOf = (c: string): string => join(state.dir, 'clients', c, 'secrets', 'issued_tokens.json');
    const a = issuedLedgerOn(one, pathOf);
    const b = issuedLedgerOn(two, pathOf);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    await Promise.all([a.record('bob', 'j1', exp), b.record('bob', 'j2', exp), a.record('bob', 'j3', exp)]);
    assert.deepEqual((await b.tokens('bob')).map((t) => t.jti).sort(), ['j1', 'j2', 'j3']);
    await a.forget('bob');
    assert.deepEqual(await a.tokens('bob'), []);
  });

  it('oauth_apps and revoke_startup_token write through the store while the instances run', async () => {
    writeFileSync(join(state.dir, '.env'), `STATE_BACKEND=${redis.url}\n`);
    const settings = { max: 10, idleMs: 86_400_000 };
    const a = await openRegisteredAppsOn(one, file('oauth_apps.json'), settings);
    const b = await openRegisteredAppsOn(two, file('oauth_apps.json'), settings);
    const r = await a.register(
      { client_name: 'Host', redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['authorization_code'] },
      '127.0.0.9',
    );
    assert.ok(r.ok);
    await until('registered everywhere', () => b.get(r.app.client_id) !== undefined);
    const io = fakeIo();
    assert.equal(
      await runNamed('oauth_apps', ['list', '--json', '--state-dir', state.dir], io),
      0,
      io.stderr,
    );
    assert.deepEqual(
      (JSON.parse(io.stdout) as { client_id: string }[]).map((x) => x.client_id),
      [r.app.client_id],
    );
    const rm = fakeIo();
    const code = await runNamed('oauth_apps', ['remove', r.app.client_id, '--state-dir', state.dir], rm);
    assert.equal(code, 0, rm.stderr);
    await until('removed on both instances', () => !a.get(r.app.client_id) && !b.get(r.app.client_id));

    // A startup token revoked by the operator command is refused by the running instances.
    const reg = join(state.dir, 'clients', 'carol', 'secrets');
    mkdirSync(reg, { recursive: true });
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const list = await openRevocationListOn(two, file('token_blacklist.json'));
    writeFileSync(
      join(reg, 'registration.json'),
      JSON.stringify({
        client_secret_hash: `$2b$12$${'a'.repeat(53)}`,
        created_at: new Date().toISOString(),
        startup_token: { jti: 'carol-startup', exp },
      }),
    );
    const rv = fakeIo();
    const rc = await runNamed('revoke_startup_token', ['--client', 'carol', '--state-dir', state.dir], rv);
    assert.equal(rc, 0, rv.stderr + rv.stdout);
    await until('startup token refused', () => list.isRevoked('carol-startup'));
  });

  it('with the store gone the request-path checks refuse (STATE_STORE_UNAVAILABLE), and work again after', async () => {
    const list = await openRevocationListOn(one, file('token_blacklist.json'));
    const blacklist = new IpBlacklist(
      await openBlacklistStoreOn(one, file('ip_blacklist.json')),
      one.windows,
      audit,
      { threshold: 5, windowMs: 60_000, durationMs: 600_000 },
    );
    await redis.stop();
    await until('refusing', () => {
      try {
        list.isRevoked('x');
        return false;
      } catch (err) {
        return err instanceof StateStoreUnavailableError;
      }
    });
    await assert.rejects(blacklist.check('192.0.2.1'), StateStoreUnavailableError);
    await assert.rejects(
      list.revoke([{ jti: 'y', exp: Date.now() / 1000 + 60 }]),
      StateStoreUnavailableError,
    );
    await redis.start();
    await until(
      'serving again',
      () => {
        try {
          // Restarted empty: the first instance back wrote its copy again, so old revocations hold.
          return list.isRevoked('jti-1');
        } catch {
          return false;
        }
      },
      10_000,
    );
  });
});
