// The shared state backend (kernel/store/backend/) against a real redis-server: records, notices and
// leases as two instances see them, the instance name claim, fail-closed behaviour during an outage and
// recovery after it, credentials refused at startup without the secret in the message, and TLS that
// verifies the store's certificate.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { encryptSftpPassword } from '../../../kernel/backup/sftp-password.ts';
import type { Config } from '../../../kernel/config/schema.ts';
import { StartupError, StateStoreUnavailableError } from '../../../kernel/errors/index.ts';
import { openStateBackend } from '../../../kernel/store/backend/open-backend.ts';
import type { StateBackend } from '../../../kernel/store/backend/state-backend.ts';
import { LocalBackend } from '../../../kernel/store/backend/local-backend.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';
import { generateSelfSigned } from '../../helpers/self-signed.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the redis backend tests: ${skip}`);

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const log = bunyan.createLogger({ name: 'test', streams: [{ level: 'fatal', stream: process.stderr }] });

function config(over: Partial<Config>): Config {
  return {
    STATE_BACKEND: 'local',
    STATE_BACKEND_PASSWORD_ENC: '',
    STATE_BACKEND_TLS_CA_FILE: '',
    STATE_BACKEND_TIMEOUT_MS: 500,
    INSTANCE_ID: '',
    ...over,
  } as Config;
}

function open(url: string, instance: string, over: Partial<Config> = {}): Promise<StateBackend> {
  return openStateBackend(config({ STATE_BACKEND: url, INSTANCE_ID: instance, ...over }), {
    privateKey: keys.privateKey,
    log,
    instanceLeaseMs: 600,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Every backend kind keeps the RecordStore contract. */
async function recordContract(a: StateBackend, b: StateBackend, p: string): Promise<void> {
  await a.records.set(`${p}:one`, 'v1', 60_000);
  assert.equal(await b.records.get(`${p}:one`), 'v1');
  assert.equal(await b.records.create(`${p}:one`, 'v2', 60_000), false, 'create does not replace');
  assert.equal(await a.records.create(`${p}:two`, 'w', 60_000), true);
  assert.deepEqual((await b.records.keys(`${p}:`)).sort(), [`${p}:one`, `${p}:two`]);
  assert.deepEqual(await b.records.keys(`${p}*`), [], 'the prefix is literal, not a pattern');
  const takes = await Promise.all([a.records.take(`${p}:one`), b.records.take(`${p}:one`)]);
  assert.deepEqual(
    takes.filter((t) => t !== undefined),
    ['v1'],
    'of two instances taking a record, one gets it',
  );
  await b.records.delete(`${p}:two`);
  assert.equal(await a.records.get(`${p}:two`), undefined);
  await a.records.set(`${p}:short`, 'x', 50);
  await sleep(120);
  assert.equal(await b.records.get(`${p}:short`), undefined, 'a record expires');
  assert.deepEqual(await b.records.keys(`${p}:`), []);
}

describe('LocalBackend', () => {
  it('keeps records with expiry, delivers notices later, grants every lease', async () => {
    const local = new LocalBackend('solo');
    await recordContract(local, local, 'rec');
    const got: string[] = [];
    local.bus.subscribe('c', (m) => got.push(m));
    await local.bus.publish('c', 'hello');
    assert.deepEqual(got, [], 'never delivered inside publish');
    await until('delivery', () => got.length === 1);
    assert.equal(await local.leases.acquire('job:x', 1000), true);
    assert.deepEqual(local.status(), { kind: 'local', available: true, target: 'local' });
    await local.close();
  });
});

describe('RedisBackend', { skip }, () => {
  let redis: RedisHandle;
  let a: StateBackend;
  let b: StateBackend;
  before(async () => {
    redis = await startRedis();
    a = await open(redis.url, 'inst-a');
    b = await open(redis.url, 'inst-b');
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await redis?.cleanup();
  });

  it('shares records between instances, atomically where it matters', async () => {
    await recordContract(a, b, 'rec');
    assert.ok(redis.cli('KEYS', 'ucmcp:*').split('\n').length >= 1);
  });

  it('delivers a notice to every instance, the sender included', async () => {
    const seen: string[] = [];
    const offA = a.bus.subscribe('profiles', (m) => seen.push(`a:${m}`));
    const offB = b.bus.subscribe('profiles', (m) => seen.push(`b:${m}`));
    // The subscription is made on its own connection: wait until the store counts both.
    await until('subscriptions', () => redis.cli('PUBSUB', 'NUMSUB', 'ucmcp:n:profiles').endsWith('2'));
    await a.bus.publish('profiles', 'admin');
    await until('both deliveries', () => seen.length === 2);
    assert.deepEqual(seen.sort(), ['a:admin', 'b:admin']);
    offA();
    offB();
  });

  it('grants a lease to one instance at a time', async () => {
    assert.equal(await a.leases.acquire('job:backup', 300), true);
    assert.equal(await b.leases.acquire('job:backup', 300), false);
    assert.equal(await a.leases.acquire('job:backup', 300), true, 'the holder extends it');
    await b.leases.release('job:backup');
    assert.equal(await b.leases.acquire('job:backup', 300), false, 'only the holder releases it');
    await a.leases.release('job:backup');
    assert.equal(await b.leases.acquire('job:backup', 300), true);
    await sleep(400);
    assert.equal(await a.leases.acquire('job:backup', 300), true, 'an expired lease is free');
  });

  it('refuses a second running instance with the same INSTANCE_ID', async () => {
    await assert.rejects(open(redis.url, 'inst-a'), (err: Error) => {
      assert.ok(err instanceof StartupError);
      assert.match(err.message, /INSTANCE_ID inst-a is in use by another running instance/);
      return true;
    });
  });

  it('refuses at once while the store hangs (connected, not answering), until it answers again', async () => {
    // Every client's commands held for 2.5 s: the store is up but silent, as a stalled server would be.
    redis.cli('CLIENT', 'PAUSE', '2500', 'ALL');
    const t0 = Date.now();
    await assert.rejects(a.records.get('hang'), StateStoreUnavailableError);
    assert.ok(Date.now() - t0 < 1500, 'refused within the command timeout');
    assert.equal(a.status().available, false, 'known unresponsive after a timeout');
    const t1 = Date.now();
    await assert.rejects(a.records.get('hang'), StateStoreUnavailableError);
    assert.ok(Date.now() - t1 < 100, 'refused at once, without waiting the timeout again');
    await until('answers again', () => a.status().available, 10_000);
    assert.equal(await a.records.get('hang'), undefined);
  });

  it('fails closed while the store is down, and recovers when it returns', async () => {
    await a.records.set('outage', 'before', 60_000);
    await redis.stop();
    const t0 = Date.now();
    await assert.rejects(a.records.get('outage'), StateStoreUnavailableError);
    assert.ok(Date.now() - t0 < 1500, 'refused within the command timeout');
    await until('unavailable status', () => !a.status().available);
    await assert.rejects(a.leases.acquire('job:x', 1000), StateStoreUnavailableError);
    await assert.rejects(a.bus.publish('c', 'm'), StateStoreUnavailableError);
    assert.throws(
      () => a.assertAvailable(),
      (err: StateStoreUnavailableError) => {
        assert.equal(err.code, 'STATE_STORE_UNAVAILABLE');
        assert.equal(err.status, 503);
        assert.ok((err.retryAfterSeconds ?? 0) > 0);
        return true;
      },
    );
    await redis.start();
    await until('reconnection', () => a.status().available && b.status().available, 10_000);
    // Nothing persisted (an outage of a store without persistence): the record is gone, the store works.
    assert.equal(await a.records.get('outage'), undefined);
    await a.records.set('outage', 'after', 60_000);
    assert.equal(await b.records.get('outage'), 'after');
    // Notices flow again: the subscriber resubscribed by itself.
    const seen: string[] = [];
    const off = b.bus.subscribe('after', (m) => seen.push(m));
    await until('resubscribed', () => redis.cli('PUBSUB', 'NUMSUB', 'ucmcp:n:after').endsWith('1'));
    await a.bus.publish('after', 'x');
    await until('delivery after recovery', () => seen.length === 1);
    off();
  });
});

describe('RedisBackend credentials', { skip }, () => {
  let redis: RedisHandle;
  const secret = 'Sup3r-Secret-Pw!';
  before(async () => {
    redis = await startRedis({ acl: { user: 'ucmcp', password: secret } });
  });
  after(async () => {
    await redis?.cleanup();
  });
  const withUser = () => redis.url.replace('redis://', 'redis://ucmcp@');
  const enc = (pw: string) => encryptSftpPassword(pw, keys.publicKey);

  it('connects with the ACL user and its password', async () => {
    const s = await open(withUser(), 'cred-ok', { STATE_BACKEND_PASSWORD_ENC: enc(secret) });
    await s.records.set('k', 'v', 1000);
    assert.equal(await s.records.get('k'), 'v');
    assert.ok(!JSON.stringify(s.status()).includes(secret));
    await s.close();
  });

  for (const [name, url, pw] of [
    ['a wrong password', () => withUser(), 'wrong-password-123'],
    ['no password', () => withUser(), ''],
    ['an unknown user', () => redis.url.replace('redis://', 'redis://nobody@'), secret],
  ] as const) {
    it(`refuses to start with ${name}, naming the store but no secret`, async () => {
      await assert.rejects(
        open(url(), 'cred-bad', { STATE_BACKEND_PASSWORD_ENC: pw ? enc(pw) : '' }),
        (err: Error) => {
          assert.ok(err instanceof StartupError, String(err));
          assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${redis.port}`));
          assert.match(err.message, /WRONGPASS|NOAUTH|auth/i);
          assert.ok(!err.message.includes(secret) && !err.message.includes('wrong-password-123'));
          return true;
        },
      );
    });
  }
});

describe('RedisBackend over TLS', { skip }, () => {
  let redis: RedisHandle;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ucmcp-redis-tls-'));
    const server = generateSelfSigned(['127.0.0.1', 'localhost'], 2, 'redis test');
    const other = generateSelfSigned(['127.0.0.1', 'localhost'], 2, 'someone else');
    writeFileSync(join(dir, 'cert.pem'), server.certPem);
    writeFileSync(join(dir, 'key.pem'), server.keyPem, { mode: 0o600 });
    writeFileSync(join(dir, 'other.pem'), other.certPem);
    redis = await startRedis({
      tls: {
        certFile: join(dir, 'cert.pem'),
        keyFile: join(dir, 'key.pem'),
        caFile: join(dir, 'cert.pem'),
      },
    });
  });
  after(async () => {
    await redis?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies the store against STATE_BACKEND_TLS_CA_FILE', async () => {
    assert.match(redis.url, /^rediss:/);
    const s = await open(redis.url, 'tls-ok', { STATE_BACKEND_TLS_CA_FILE: join(dir, 'cert.pem') });
    await s.records.set('k', 'v', 1000);
    assert.equal(await s.records.get('k'), 'v');
    assert.match(s.status().target, /\(TLS\)/);
    await s.close();
  });

  it('refuses a store whose certificate another CA signed, and one the system does not trust', async () => {
    for (const ca of [join(dir, 'other.pem'), '']) {
      await assert.rejects(open(redis.url, 'tls-bad', { STATE_BACKEND_TLS_CA_FILE: ca }), (err: Error) => {
        assert.ok(err instanceof StartupError, String(err));
        assert.match(err.message, /certificate/i);
        return true;
      });
    }
  });
});
