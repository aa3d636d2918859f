// The node address policy end to end, through real MCP clients against the lab, on loopback only: the
// lab (127.0.0.1) configured out with NODE_ALLOWED_NETWORKS=127.0.0.2/32, every transport (AXL, RIS,
// CUPI, VOS SSH, phone HTTP, toolkit downloads) refuses it with NODE_ADDRESS_DENIED and sends nothing;
// credentials are refused when stored; a refused port answers the same whether anything listens there;
// and, with the default empty list, the server's own address and port are refused while the lab works.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { NodeResolver } from '../../../kernel/net/node-address-policy.ts';
import { tableResolver } from '../../helpers/node-resolver.ts';
import { labCredential, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

const DENIED = 'NODE_ADDRESS_DENIED';

/** The stack's resolver, counting how often each name is resolved. */
function countingResolver(names: Record<string, string[]>): NodeResolver & { calls: Map<string, number> } {
  const inner = tableResolver(names);
  const calls = new Map<string, number>();
  return Object.assign(
    (host: string, o: { family?: number; hints?: number }) => {
      calls.set(host, (calls.get(host) ?? 0) + 1);
      return inner(host, o);
    },
    { calls },
  );
}

/** A TCP listener that counts connections (a service an attacker would like to reach). */
async function listener(): Promise<{
  server: Server;
  port: number;
  accepted: () => number;
  close(): Promise<void>;
}> {
  let accepted = 0;
  const sockets: Socket[] = [];
  const server = createServer((c) => {
    accepted++;
    sockets.push(c);
    c.on('error', () => undefined);
    c.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\nconnection: close\r\n\r\nsecret');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    close: async () => {
      for (const c of sockets) c.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('node address policy: the lab configured out (NODE_ALLOWED_NETWORKS=127.0.0.2/32)', () => {
  let s: ProductStack;
  const resolver = countingResolver({ 'probe.test': ['127.0.0.1'], 'meta.test': ['169.254.169.254'] });
  before(async () => {
    s = await startProductStack({
      env: { NODE_ALLOWED_NETWORKS: '127.0.0.2/32' },
      // Stored before the list was narrowed (written straight into the vault): refused when used.
      seedVaultFor: ['admin', 'operator', 'auditor'],
      nodeResolver: resolver,
    });
  });
  after(async () => {
    await s.stop();
  });

  it('every transport refuses the node before anything is sent', async () => {
    const cucm = s.node('cucm').name;
    const imp = s.node('imp').name;
    const cuc = s.node('cuc').name;
    const phone = s.node('phone').name;
    s.lab.state.log.clear();
    const calls: [string, Record<string, unknown>][] = [
      ['cucm_get_version', { host: cucm }], // AXL
      ['cucm_axl_call', { host: cucm, operation: 'getPhone', args: { name: 'SEP000000000001' } }],
      ['cucm_download_axl_toolkit', { host: cucm }],
      ['cucm_download_ris_toolkit', { host: cucm }], // RIS
      ['cucm_os_run_command', { host: cucm, command: 'show version active' }], // SSH
      ['cucm_phone_screenshot', { host: phone, timeout_s: 2 }], // phone HTTP
      ['cucm_perfmon_query', { host: cucm, object: 'Memory' }], // serviceability SOAP
      ['imp_get_version', { host: imp }],
      ['imp_os_run_command', { host: imp, command: 'show version active' }],
      ['cuc_cupi_call', { host: cuc, method: 'GET', path: '/vmrest/users' }], // CUPI
      ['cuc_get_version', { host: cuc }],
      ['cuc_os_run_command', { host: cuc, command: 'show version active' }],
    ];
    for (const [tool, args] of calls) {
      const r = await s.fails('admin', tool, args);
      assert.equal(r.error, DENIED, `${tool}: ${r.message}`);
      assert.match(r.message, /127\.0\.0\.1:\d+: outside NODE_ALLOWED_NETWORKS/, tool);
    }
    for (const [product, services] of [
      ['cucm', ['axl', 'ris', 'ssh']],
      ['imp', ['axl', 'ssh']],
      ['cuc', ['cupi', 'ssh']],
    ] as const) {
      const check = await s.ok('operator', `${product}_check_connectivity`, { host: s.node(product).name });
      const got = check.services as Record<string, { ok: boolean; error?: string }>;
      for (const service of services) assert.equal(got[service]?.error, DENIED, `${product} ${service}`);
    }
    assert.deepEqual(s.lab.state.log.requests, [], 'no HTTP request reached the lab');
    assert.deepEqual(s.lab.state.log.commands, [], 'no SSH command reached the lab');
  });

  it('refuses a credential whose address is already known to be refused, stores one not resolvable yet', async () => {
    const cucm = s.node('cucm');
    const base = labCredential(s.lab, cucm, 'axl');
    const refusedAt = async (tool: string, args: Record<string, unknown>, why: RegExp): Promise<void> => {
      const r = await s.fails('admin', tool, args);
      assert.equal(r.error, DENIED, `${tool} ${JSON.stringify(args.address ?? args.host)}: ${r.message}`);
      assert.match(r.message, why);
      assert.ok(!r.message.includes(String(base.password)), 'no secret in the refusal');
    };
    const host = 'new-cucm.example.com';
    await refusedAt('cucm_store_credentials', { ...base, host }, /outside NODE_ALLOWED_NETWORKS/);
    await refusedAt(
      'cucm_store_credentials',
      { ...base, host, address: 'localhost:8443' },
      /\(127\.0\.0\.1\)/,
    );
    await refusedAt('cucm_store_credentials', { ...base, host, address: '2852039166' }, /link-local/);
    await refusedAt(
      'cucm_store_credentials',
      { ...base, host, address: '[::ffff:a9fe:a9fe]:443' },
      /link-local/,
    );
    await refusedAt(
      'cucm_store_credentials',
      { ...base, host, address: 'meta.test:80' },
      /169\.254\.169\.254/,
    );
    await refusedAt('cucm_os_store_credentials', { ...labCredential(s.lab, cucm, 'os'), host }, /outside/);
    await refusedAt(
      'cucm_phone_store_credentials',
      { ...labCredential(s.lab, s.node('phone'), 'phone'), host: 'metadata.google.internal', address: '' },
      /metadata service name/,
    );
    await refusedAt(
      'cuc_store_credentials',
      { ...labCredential(s.lab, s.node('cuc'), 'cupi'), host },
      /outside/,
    );
    // Update: the stored credential (seeded) stays as it was.
    await refusedAt('cucm_update_credentials', { ...base, address: '0251.0376.0251.0376:80' }, /link-local/);
    const listed = await s.ok('admin', 'cucm_list_credentials', {});
    assert.ok(!JSON.stringify(listed).includes(host), 'nothing refused was stored');
    // A name that does not resolve yet, or an allowed address, is stored.
    await s.ok('admin', 'cucm_store_credentials', { ...base, host, address: 'not-yet.example.com:8443' });
    await s.ok('admin', 'cucm_store_credentials', {
      ...base,
      host: 'two.example.com',
      address: '127.0.0.2:8443',
    });
  });

  it('answers a refused port identically whether anything listens there, and tries once', async () => {
    const l = await listener();
    const admin = s.k.kernel.runtime.vault.forClient('admin1', { ip: '127.0.0.1' });
    const secret = (address: string) => ({ username: 'u', password: 'phone-secret-1', options: { address } });
    await admin.store('cucm', 'phone', 'by-ip-phone', secret(`127.0.0.1:${l.port}`));
    await admin.store('cucm', 'phone', 'by-name-phone', secret(`probe.test:${l.port}`));
    const shot = (host: string) => s.fails('admin', 'cucm_phone_screenshot', { host, timeout_s: 2 });
    const open = [await shot('by-ip-phone'), await shot('by-name-phone')];
    await l.close();
    const closed = [await shot('by-ip-phone'), await shot('by-name-phone')];
    assert.deepEqual(open, closed);
    assert.equal(open[0]?.error, DENIED);
    assert.equal(open[1]?.error, DENIED);
    assert.equal(l.accepted(), 0, 'nothing connected to the listener');
    // One resolution per call: a refused address is never retried.
    assert.equal(resolver.calls.get('probe.test'), 2);
  });
});

describe("node address policy: the server's own address and port (default empty list)", () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack({ seedVaultFor: [] });
  });
  after(async () => {
    await s.stop();
  });

  it('refuses the server itself, at store time and when used, while the lab nodes work', async () => {
    const phone = s.node('phone');
    const own = s.k.kernel.port;
    const cred = labCredential(s.lab, phone, 'phone');
    for (const address of [`127.0.0.1:${own}`, `localhost:${own}`, `0x7f000001:${own}`]) {
      const r = await s.fails('admin', 'cucm_phone_store_credentials', { ...cred, host: 'self', address });
      assert.equal(r.error, DENIED, address);
      assert.match(r.message, /own listening address and port/);
    }
    // Stored anyway (straight into the vault): refused when used, answering nothing of the server.
    await s.k.kernel.runtime.vault.forClient('admin1').store('cucm', 'phone', 'self', {
      username: 'u',
      password: 'p',
      options: { address: `127.0.0.1:${own}` },
    });
    const used = await s.fails('admin', 'cucm_phone_screenshot', { host: 'self', timeout_s: 2 });
    assert.equal(used.error, DENIED);
    // The lab's nodes listen on other loopback ports: the default list leaves them reachable.
    await s.ok('admin', 'cucm_phone_store_credentials', cred);
    await s.ok('admin', 'cucm_phone_screenshot', { host: phone.name });
    const byName = { ...cred, host: 'by-name', address: `localhost:${phone.ports.http}` };
    await s.ok('admin', 'cucm_phone_store_credentials', byName);
    await s.ok('admin', 'cucm_phone_screenshot', { host: 'by-name' });
  });
});
