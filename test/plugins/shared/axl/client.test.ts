import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AXLError, BadRequestError, ConnectivityError, NotFoundError } from '../../../../kernel/sdk/index.ts';
import { AxlClient, AxlFaultError, negotiateVersion } from '../../../../plugins/_shared/axl/axl-client.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import {
  MemoryLimitStateStore,
  type LimitStateStore,
} from '../../../../plugins/_shared/node/window-limiter.ts';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AxlLab } from './helpers.ts';
import { FAST_RETRY, startAxlLab } from './helpers.ts';

describe('AXL client against the lab CUCM', () => {
  let t: AxlLab;
  let client: AxlClient;
  before(async () => {
    t = await startAxlLab({ axlWriteThrottle: { maxWrites: 3, windowMs: 300 } });
  });
  after(async () => {
    client?.close();
    await t.stop();
  });

  it('says which tool to run when no schema is cached', async () => {
    await assert.rejects(
      t.cache.load('15.0'),
      (e: unknown) => e instanceof BadRequestError && /cucm_download_axl_toolkit/.test(e.message),
    );
  });

  it('downloads the toolkit and extracts only the schema, with progress', async () => {
    const events: string[] = [];
    const r = await downloadAxlToolkit({
      ...t.node,
      cache: t.cache,
      nodeVersion: '15.0',
      retry: FAST_RETRY,
      onProgress: (_d, _t, m) => events.push(m),
    });
    assert.deepEqual(r.versions, ['15.0']);
    assert.ok(r.skipped > 0, 'the sample was skipped');
    assert.deepEqual(t.cache.versions(), ['15.0']);
    assert.deepEqual(readdirSync(join(t.cache.schemaCache, 'axl')), ['15.0']);
    assert.deepEqual(readdirSync(t.cache.dir('15.0')).sort(), ['AXLAPI.wsdl', 'AXLEnums.xsd', 'AXLSoap.xsd']);
    assert.ok(!existsSync(join(t.cache.schemaCache, 'axl', 'axlsqltoolkit')));
    assert.ok(events.some((e) => e.startsWith('extracting schema/15.0/')));
  });

  it('parses a schema once and shares it', async () => {
    const [a, b] = await Promise.all([t.cache.load('15.0'), t.cache.load('15.0')]);
    assert.equal(a, b);
    assert.equal(await t.cache.load('15.0'), a, 'a second load returns the kept parse');
    const ops = await t.cache.operations('15.0', 'phone');
    assert.ok(ops.includes('getPhone') && ops.includes('listPhone'));
    const fields = await t.cache.describe('15.0', 'addPhone');
    const phone = fields.find((f) => f.name === 'phone');
    assert.ok(phone?.children?.some((c) => c.name === 'name'));
    await assert.rejects(t.cache.describe('15.0', 'noSuchOp'), NotFoundError);
    client = new AxlClient({
      ...t.node,
      version: '15.0',
      schema: a,
      retry: FAST_RETRY,
      throttleBackoffMs: [100, 200, 400, 800],
    });
  });

  it('reads, writes and reads back a phone; the lab database shows each write', async () => {
    const got = (await client.call('getPhone', { name: 'SEP0A1B2C3D4E02' })) as {
      return: { phone: { name: string; product: string } };
    };
    assert.equal(got.return.phone.name, 'SEP0A1B2C3D4E02');
    assert.equal(got.return.phone.product, 'Cisco 7965');
    assert.match(await client.getVersion(), /^15\.0\./);
    await client.call('addPhone', {
      phone: {
        name: 'SEPAABBCCDDEEF1',
        description: 'axl client',
        product: 'Cisco 8865',
        class: 'Phone',
        protocol: 'SIP',
        devicePoolName: 'Default',
      },
    });
    const devices = t.lab.state.cucm.db.table('device');
    assert.ok(devices.findBy('name', 'SEPAABBCCDDEEF1'));
    await client.call('updatePhone', { name: 'SEPAABBCCDDEEF1', description: 'changed' });
    assert.equal(devices.findBy('name', 'SEPAABBCCDDEEF1')?.description, 'changed');
    await client.call('removePhone', { name: 'SEPAABBCCDDEEF1' });
    assert.equal(devices.findBy('name', 'SEPAABBCCDDEEF1'), undefined);
  });

  it('retries writes the node throttles with HTTP 503', async () => {
    const before = t.lab.state.log.requests.length;
    for (let i = 0; i < 5; i++)
      await client.call('updatePhone', { name: 'SEP0A1B2C3D4E02', description: `burst ${i}` });
    const statuses = t.lab.state.log.requests.slice(before).map((r) => r.status);
    assert.ok(statuses.includes(503), 'the node throttled');
    assert.equal(
      t.lab.state.cucm.db.table('device').findBy('name', 'SEP0A1B2C3D4E02')?.description,
      'burst 4',
    );
  });

  it("shares a node's 503 back-off through the throttle store: another client waits it out or refuses", async () => {
    const inner = new MemoryLimitStateStore();
    const noted: string[] = [];
    const throttle: LimitStateStore = {
      get: (k) => inner.get(k),
      set: (k, v, ttl) => {
        noted.push(k);
        return inner.set(k, v, ttl);
      },
    };
    const schema = await t.cache.load('15.0');
    const make = () =>
      new AxlClient({
        ...t.node,
        version: '15.0',
        schema,
        retry: FAST_RETRY,
        throttleBackoffMs: [100, 200, 400, 800],
        throttle,
      });
    const [a, b] = [make(), make()];
    const key = `${t.node.host.toLowerCase()}:${t.node.port}`;
    try {
      for (let i = 0; i < 5; i++)
        await a.call('updatePhone', { name: 'SEP0A1B2C3D4E02', description: `shared ${i}` });
      assert.ok(noted.includes(key), 'the 503 was recorded for every instance to see');
      // Another instance was told to wait a minute: this one sends nothing and says when to retry.
      await throttle.set(key, String(Date.now() + 60_000), 60_000);
      const sent = t.lab.state.log.requests.length;
      await assert.rejects(
        b.call('getPhone', { name: 'SEP0A1B2C3D4E02' }),
        (e: unknown) => e instanceof AXLError && /throttling AXL.*retry in (59|60) s/.test(e.message),
      );
      assert.equal(t.lab.state.log.requests.length, sent, 'nothing was sent');
      // A short block is waited out.
      await throttle.set(key, String(Date.now() + 300), 300);
      const t0 = Date.now();
      await b.call('getPhone', { name: 'SEP0A1B2C3D4E02' });
      assert.ok(Date.now() - t0 >= 250, `waited ${Date.now() - t0} ms`);
    } finally {
      a.close();
      b.close();
    }
  });

  it('maps a fault to AXLError with the node code, and refuses unknown fields before sending', async () => {
    await assert.rejects(
      client.call('getPhone', { name: 'SEPNOSUCHPHONE1' }),
      (e: unknown) => e instanceof AxlFaultError && e instanceof AXLError && e.axlCode === 5007,
    );
    await assert.rejects(
      client.call('getPhone', { nmae: 'x' }),
      (e: unknown) => e instanceof BadRequestError && /unknown field "nmae"/.test(e.message),
    );
  });

  it('reports failed authentication without echoing the password', async () => {
    const bad = new AxlClient({
      ...t.node,
      password: 'Wrong-Secret-9',
      version: '15.0',
      schema: await t.cache.load('15.0'),
    });
    await assert.rejects(
      bad.call('getCCMVersion', {}),
      (e: unknown) =>
        e instanceof AXLError && /authentication/.test(e.message) && !e.message.includes('Wrong-Secret-9'),
    );
    bad.close();
  });

  it('negotiates the version on HTTP 599', async () => {
    assert.deepEqual(await negotiateVersion({ ...t.node, retry: FAST_RETRY }, t.cache), {
      version: '15.0',
      supported: [],
    });
    // A cache holding only an unserved version: the node's list names what to download.
    const { AxlSchemaCache } = await import('../../../../plugins/_shared/axl/schema-cache.ts');
    const { mkdirSync, copyFileSync } = await import('node:fs');
    const other = new AxlSchemaCache(join(t.dir, 'other'), 'imp_download_axl_toolkit');
    mkdirSync(other.dir('16.0'), { recursive: true });
    for (const f of readdirSync(t.cache.dir('15.0')))
      copyFileSync(join(t.cache.dir('15.0'), f), join(other.dir('16.0'), f));
    await assert.rejects(
      negotiateVersion({ ...t.node, retry: FAST_RETRY }, other),
      (e: unknown) =>
        e instanceof BadRequestError &&
        /12\.0, 12\.5, 14\.0, 15\.0/.test(e.message) &&
        /imp_download_axl_toolkit/.test(e.message),
    );
    mkdirSync(other.dir('14.0'), { recursive: true });
    for (const f of readdirSync(t.cache.dir('15.0')))
      copyFileSync(join(t.cache.dir('15.0'), f), join(other.dir('14.0'), f));
    const got = await negotiateVersion({ ...t.node, retry: FAST_RETRY }, other);
    assert.equal(got.version, '14.0');
    assert.deepEqual(got.supported, ['12.0', '12.5', '14.0', '15.0']);
  });

  it('gives up on a dead port with ConnectivityError after bounded retries', async () => {
    const dead = new AxlClient({
      ...t.node,
      port: 1,
      version: '15.0',
      schema: await t.cache.load('15.0'),
      retry: FAST_RETRY,
    });
    const t0 = performance.now();
    await assert.rejects(
      dead.call('getCCMVersion', {}),
      (e: unknown) => e instanceof ConnectivityError && /after 4 attempts/.test(e.message),
    );
    assert.ok(performance.now() - t0 < 2000);
    dead.close();
  });

  it('refuses a node whose certificate the pinned CA did not sign', async () => {
    const { generateSelfSigned } = await import('../../../helpers/self-signed.ts');
    const wrong = generateSelfSigned(['127.0.0.1'], 1, 'not the lab');
    // Only the CA pinned: not the node's own certificate the lab endpoint pins.
    const { certPem: _own, ...unpinned } = t.node;
    const c = new AxlClient({
      ...unpinned,
      caCertPem: wrong.certPem,
      version: '15.0',
      schema: await t.cache.load('15.0'),
      retry: FAST_RETRY,
    });
    await assert.rejects(
      c.call('getCCMVersion', {}),
      (e: unknown) => e instanceof ConnectivityError && /not issued by the pinned CA/.test(e.message),
    );
    c.close();
  });
});
