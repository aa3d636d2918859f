import assert from 'node:assert/strict';
import { pbkdf2Sync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import nacl from 'tweetnacl';
import { CredentialError } from '../../../kernel/errors/index.ts';
import {
  DERIVED_KEY_BYTES,
  PBKDF2_DIGEST,
  PBKDF2_ITERATIONS,
  masterSecretPath,
  type CredentialKind,
  type Product,
} from '../../../kernel/vault/index.ts';
import { allBytesUnder, vaultFixture } from './vault-fixture.ts';

const CANARY = 'Canary-Pw-7f3a9c1e';
const CANARY_USER = 'canary-user-5b2d';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB-canary-free-test-ca\n-----END CERTIFICATE-----\n';

const EVERY_KIND: [Product, CredentialKind, string][] = [
  ['cucm', 'axl', 'CUCM-Pub.lab.example'],
  ['cucm', 'os', 'cucm-pub.lab.example'],
  ['cucm', 'phone', 'cucm-pub.lab.example'],
  ['imp', 'axl', 'imp1.lab.example:8443'],
  ['imp', 'os', '10.0.0.12'],
  ['cuc', 'cupi', '[2001:db8::5]:8443'],
  ['cuc', 'os', 'cuc1.lab.example'],
];

describe('credential vault: storing and reading', () => {
  const fx = vaultFixture();
  after(() => fx.cleanup());
  const noc = fx.vault.forClient('noc-agent');

  it('derives the client key off the event loop, once, and warm reads reuse it', async () => {
    let last = performance.now();
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    await noc.store('cucm', 'axl', 'cucm-pub.lab.example', { username: CANARY_USER, password: CANARY });
    const coldMs = performance.now() - started;
    clearInterval(timer);
    assert.equal(fx.vault.derivations, 1);
    assert.ok(coldMs > 100, `600,000 iterations take time (${coldMs.toFixed(0)} ms)`);
    assert.ok(
      maxGap < coldMs / 2,
      `event loop kept turning: longest gap ${maxGap.toFixed(0)} of ${coldMs.toFixed(0)} ms`,
    );

    for (let i = 0; i < 50; i++) await noc.get('cucm', 'axl', 'cucm-pub.lab.example');
    assert.equal(fx.vault.derivations, 1, 'no derivation after the first');
    assert.match(fx.log.lines.find((l) => l.includes('vault key derived')) ?? '', /"client":"noc-agent"/);
  });

  it('shares one derivation between concurrent first reads of a fresh process', async () => {
    const restarted = fx.reopen();
    const view = restarted.forClient('noc-agent');
    const reads = await Promise.all(
      Array.from({ length: 8 }, () => view.get('cucm', 'axl', 'cucm-pub.lab.example')),
    );
    assert.equal(restarted.derivations, 1);
    for (const r of reads) assert.deepEqual(r, { username: CANARY_USER, password: CANARY });
  });

  it('round-trips every kind the spec defines, options included', async () => {
    for (const [product, kind, host] of EVERY_KIND) {
      const secret = { username: `${CANARY_USER}-${kind}`, password: `${CANARY}-${product}-${kind}` };
      const withOptions = kind === 'cupi' ? { ...secret, options: { caPem: PEM, port: 8443 } } : secret;
      if (product === 'cucm' && kind === 'axl') await noc.update(product, kind, host, withOptions);
      else await noc.store(product, kind, host, withOptions);
      assert.deepEqual(await noc.get(product, kind, host.toUpperCase()), withOptions, `${product}/${kind}`);
    }
  });

  it('exposes nothing but the client name on the view a tool receives', () => {
    assert.deepEqual(Object.keys(noc), ['client']);
    assert.equal(JSON.stringify(noc), '{"client":"noc-agent"}');
    assert.deepEqual(Object.keys(noc.hostKeys), ['client']);
  });

  it('lists hosts and kinds only, per product on request', async () => {
    const all = await noc.list();
    assert.equal(all.length, EVERY_KIND.length);
    for (const e of all)
      assert.deepEqual(Object.keys(e).sort(), ['host', 'kind', 'product', 'read_only', 'updatedAt']);
    assert.ok(!JSON.stringify(all).includes(CANARY) && !JSON.stringify(all).includes(CANARY_USER));
    assert.deepEqual(
      (await noc.list('cuc')).map((e) => `${e.kind}@${e.host}`),
      ['cupi@[2001:db8::5]:8443', 'os@cuc1.lab.example'],
    );
    assert.deepEqual(await fx.vault.forClient('nobody').list(), []);
  });

  it('uses PBKDF2-SHA512, 600,000 iterations, a per-client salt, and a fresh nonce per record', async () => {
    assert.equal(PBKDF2_ITERATIONS, 600_000);
    assert.equal(PBKDF2_DIGEST, 'sha512');
    const file = fx.credentialsFile('noc-agent');
    assert.deepEqual(
      { ...file.kdf, salt: undefined },
      { algorithm: 'PBKDF2', digest: 'sha512', iterations: 600_000, keyBytes: 32, salt: undefined },
    );
    const salt = Buffer.from(file.kdf.salt, 'base64');
    assert.ok(salt.length >= 16);
    // Independent derivation with node's own PBKDF2 opens the record: the parameters are the real ones.
    const master = readFileSync(masterSecretPath(fx.paths));
    const key = pbkdf2Sync(master, salt, 600_000, DERIVED_KEY_BYTES, 'sha512');
    const rec = file.records['cucm/axl/cucm-pub.lab.example'];
    assert.ok(rec);
    const opened = nacl.secretbox.open(Buffer.from(rec.box, 'base64'), Buffer.from(rec.nonce, 'base64'), key);
    assert.ok(opened, 'a direct PBKDF2-SHA512 derivation opens the record');
    assert.match(Buffer.from(opened).toString('utf8'), new RegExp(`${CANARY}-cucm-axl`));

    const nonces = Object.values(file.records).map((r) => r.nonce);
    assert.equal(new Set(nonces).size, nonces.length, 'one nonce per record');
    for (const n of nonces) assert.equal(Buffer.from(n, 'base64').length, 24);

    await fx.vault.forClient('second').store('cuc', 'os', 'cuc1', { username: 'u', password: 'p' });
    assert.notEqual(fx.credentialsFile('second').kdf.salt, file.kdf.salt, 'salt is per client');
  });

  it('store refuses existing credentials; update and delete refuse missing ones', async () => {
    await assert.rejects(
      noc.store('cucm', 'os', 'cucm-pub.lab.example', { username: 'x', password: 'y' }),
      (err: unknown) => err instanceof CredentialError && /already exist; use update/.test(err.message),
    );
    const missing = (err: unknown) =>
      err instanceof CredentialError &&
      err.status === 400 &&
      err.message === 'no os credentials are stored for imp host imp9 (client noc-agent)';
    await assert.rejects(noc.update('imp', 'os', 'imp9', { username: 'x', password: 'y' }), missing);
    await assert.rejects(noc.delete('imp', 'os', 'imp9'), missing);
    await assert.rejects(noc.get('imp', 'os', 'imp9'), missing);

    await noc.delete('imp', 'os', '10.0.0.12');
    await assert.rejects(noc.get('imp', 'os', '10.0.0.12'), CredentialError);
    assert.equal((await noc.list('imp')).length, 1);
  });

  it('refuses invalid input with a CredentialError that repeats no secret', async () => {
    const bad: [Product, CredentialKind, string, unknown][] = [
      ['cucm', 'axl', 'h1', { username: CANARY_USER }],
      ['cucm', 'axl', 'h1', { username: CANARY_USER, password: '' }],
      ['cucm', 'axl', 'h1', { username: CANARY_USER, password: CANARY, pasword: CANARY }],
      ['cucm', 'axl', 'h1', { username: CANARY_USER, password: 'x'.repeat(1025) }],
      ['cucm', 'axl', 'h1', { username: CANARY_USER, password: CANARY, options: 'port=1' }],
      ['cuc', 'axl' as CredentialKind, 'h1', { username: CANARY_USER, password: CANARY }],
      ['cucm', 'axl', `${CANARY_USER}:${CANARY}@h1`, { username: CANARY_USER, password: CANARY }],
    ];
    for (const [p, k, h, s] of bad) {
      await assert.rejects(
        noc.store(p, k, h, s as never),
        (err: unknown) =>
          err instanceof CredentialError &&
          !err.message.includes(CANARY) &&
          !err.message.includes(CANARY_USER),
      );
    }
  });

  it('adds the caller’s address to the audit records of a view opened with one', async () => {
    const fromIp = fx.vault.forClient('noc-agent', { ip: '192.0.2.7' });
    await fromIp.store('cucm', 'phone', 'sep0011.lab.example', { username: 'u', password: `${CANARY}-ip` });
    const rec = fx.auditRecords().at(-1);
    assert.equal(rec?.ip, '192.0.2.7');
    assert.equal(rec?.client, 'noc-agent');
    assert.equal((await noc.get('cucm', 'phone', 'sep0011.lab.example')).password, `${CANARY}-ip`);
  });

  it('serialises concurrent writes: nothing is lost', async () => {
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 25; i++) {
      ops.push(noc.store('cucm', 'phone', `phone-${i}.lab.example`, { username: 'u', password: `p${i}` }));
    }
    for (let i = 0; i < 10; i++) {
      ops.push(noc.update('cucm', 'os', 'cucm-pub.lab.example', { username: 'u', password: `round-${i}` }));
    }
    await Promise.all(ops);
    assert.equal((await noc.list('cucm')).filter((e) => e.host.startsWith('phone-')).length, 25);
    assert.equal((await noc.get('cucm', 'os', 'cucm-pub.lab.example')).password, 'round-9');
    // The file itself, not a cache, holds all of them.
    assert.equal(
      Object.keys(fx.credentialsFile('noc-agent').records).filter((k) => k.includes('phone-')).length,
      25,
    );
  });

  it('audits every store, update and delete, failures included, with no secret', () => {
    const recs = fx.auditRecords().filter((r) => r.event === 'CREDENTIAL');
    for (const r of recs) {
      assert.equal(typeof r.timestamp, 'string');
      assert.ok(['store', 'update', 'delete'].includes(r.operation as string));
      assert.ok(['OK', 'FAILED'].includes(r.status as string));
      assert.ok(
        typeof r.client === 'string' && typeof r.product === 'string' && typeof r.cluster === 'string',
      );
    }
    const first = recs[0];
    assert.deepEqual(
      { ...first, timestamp: undefined },
      {
        timestamp: undefined,
        event: 'CREDENTIAL',
        client: 'noc-agent',
        status: 'OK',
        operation: 'store',
        product: 'cucm',
        kind: 'axl',
        cluster: 'cucm-pub.lab.example',
        read_only: false,
      },
    );
    const find = (op: string, status: string, reason?: string) =>
      recs.filter((r) => r.operation === op && r.status === status && r.reason === reason);
    assert.equal(find('store', 'OK').length, 1 + 6 + 1 + 1 + 25);
    assert.equal(find('update', 'OK').length, 1 + 10);
    assert.equal(find('delete', 'OK').length, 1);
    assert.equal(find('store', 'FAILED', 'exists').length, 1);
    assert.equal(find('update', 'FAILED', 'not_found').length, 1);
    assert.equal(find('delete', 'FAILED', 'not_found').length, 1);
    assert.equal(find('store', 'FAILED', 'invalid').length, 7);
    const pasted = find('store', 'FAILED', 'invalid').at(-1);
    assert.equal(pasted?.cluster, '(invalid)', 'an invalid host is not echoed into the audit log');
    assert.equal(pasted?.product, 'cucm');
  });

  it('leaves no secret in plain text on disk, in the audit log or in the app log', () => {
    const disk = allBytesUnder(fx.dir);
    for (const needle of [CANARY, CANARY_USER, 'round-9', 'MIIB-canary-free-test-ca']) {
      assert.equal(disk.indexOf(needle), -1, `${needle} not on disk`);
      assert.ok(!fx.log.lines.some((l) => l.includes(needle)), `${needle} not in app log`);
    }
  });
});
