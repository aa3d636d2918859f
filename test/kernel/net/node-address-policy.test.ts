// The node address policy without any tool around it: which addresses are refused however they are
// spelled (no traffic: literals never reach a resolver), and that the socket is handed exactly the
// addresses checked, one resolution per connection (DNS rebinding).
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { configSchema } from '../../../kernel/config/schema.ts';
import { NodeAddressDeniedError } from '../../../kernel/errors/index.ts';
import { formatIp, parseIp, parseIPv4 } from '../../../kernel/net/ip-address.ts';
import { deniedAddress } from '../../../kernel/net/denied-addresses.ts';
import {
  NodeAddressPolicy,
  parseAllowEntry,
  type NodeResolver,
} from '../../../kernel/net/node-address-policy.ts';
import { httpExchange } from '../../../plugins/_shared/axl/transport.ts';

/** A resolver that fails the test if anything asks it: literals must never be resolved. */
const noResolver: NodeResolver = (host) => assert.fail(`resolver asked for ${host}`);

function refused(policy: NodeAddressPolicy, host: string, port = 443): string {
  try {
    policy.dialOptions(host, port);
  } catch (err) {
    assert.ok(err instanceof NodeAddressDeniedError, String(err));
    assert.equal(err.code, 'NODE_ADDRESS_DENIED');
    return err.message;
  }
  return assert.fail(`${host}:${port} was not refused`);
}

function admitted(policy: NodeAddressPolicy, host: string, port = 443): void {
  assert.doesNotThrow(() => policy.dialOptions(host, port), host);
}

describe('IPv4 and IPv6 notations', () => {
  it('reads every inet_aton notation as the resolver would, and nothing else', () => {
    const v = (t: string) =>
      parseIPv4(t) === undefined ? undefined : formatIp({ family: 4, value: parseIPv4(t) as bigint });
    assert.equal(v('2852039166'), '169.254.169.254');
    assert.equal(v('0xA9FEA9FE'), '169.254.169.254');
    assert.equal(v('0251.0376.0251.0376'), '169.254.169.254');
    assert.equal(v('0xa9.0xfe.0xa9.0xfe'), '169.254.169.254');
    assert.equal(v('169.254.43518'), '169.254.169.254');
    assert.equal(v('169.16689662'), '169.254.169.254');
    assert.equal(v('127.1'), '127.0.0.1');
    assert.equal(v('0'), '0.0.0.0');
    for (const bad of [
      '08.1.1.1',
      '1.2.3.4.5',
      '256.1.1.1',
      '4294967296',
      '0x',
      '1..1',
      '1.2.3.4 ',
      'cucm',
      '',
    ])
      assert.equal(v(bad), undefined, bad);
  });

  it('expands IPv6 with a dotted tail, a zone or brackets', () => {
    const f = (t: string) => formatIp(parseIp(t) as NonNullable<ReturnType<typeof parseIp>>);
    assert.equal(f('::ffff:169.254.169.254'), '::ffff:a9fe:a9fe');
    assert.equal(f('[::1]'), '::1');
    assert.equal(f('fe80::1%eth0'), 'fe80::1');
    assert.equal(f('0:0:0:0:0:0:0:0'), '::');
    assert.equal(f('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
  });
});

describe('addresses refused whatever NODE_ALLOWED_NETWORKS says', () => {
  // Even an allow list that admits everything does not reopen them.
  const everything = new NodeAddressPolicy({ allowed: ['0.0.0.0/0', '::/0'], resolver: noResolver });
  const cases: [string, RegExp][] = [
    ['169.254.169.254', /link-local/],
    ['2852039166', /link-local/],
    ['0xA9FEA9FE', /link-local/],
    ['0xa9.0xfe.0xa9.0xfe', /link-local/],
    ['0251.0376.0251.0376', /link-local/],
    ['169.254.43518', /link-local/],
    ['169.254.0.1', /link-local/],
    ['::ffff:169.254.169.254', /link-local/],
    ['::ffff:a9fe:a9fe', /link-local/],
    ['[::ffff:169.254.169.254]', /link-local/],
    ['::ffff:0:a9fe:a9fe', /link-local.*169\.254\.169\.254/],
    ['64:ff9b::a9fe:a9fe', /link-local.*reached through 169\.254\.169\.254/],
    ['64:ff9b::169.254.169.254', /link-local/],
    ['64:ff9b:1::a9fe:a9fe', /link-local/],
    ['2002:a9fe:a9fe::1', /link-local/],
    ['2001:0:4136:e378:8000:63bf:5601:5601', /link-local/], // Teredo client 169.254.169.254
    ['::169.254.169.254', /IPv4-compatible/],
    ['::7f00:1', /IPv4-compatible/],
    ['fe80::1', /link-local/],
    ['FE80::1%eth0', /link-local/],
    ['febf:ffff::1', /link-local/],
    ['fd00:ec2::254', /AWS instance metadata/],
    ['fd00:ec2:0:0:0:0:0:254', /AWS instance metadata/],
    ['fd20:ce::254', /Google Cloud metadata/],
    ['100.100.100.200', /Alibaba/],
    ['1684301000', /Alibaba/],
    ['168.63.129.16', /Azure/],
    ['192.0.0.192', /Oracle/],
    ['0.0.0.0', /unspecified/],
    ['0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['::', /unspecified/],
    ['0:0:0:0:0:0:0:0', /unspecified/],
    ['::ffff:0.0.0.0', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['0xe0000001', /multicast/],
    ['ff02::1', /multicast/],
    ['::ffff:224.0.0.251', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['0xffffffff', /broadcast/],
    ['4294967295', /broadcast/],
    ['metadata.google.internal', /metadata service name/],
    ['METADATA.Google.Internal.', /metadata service name/],
    ['metadata', /metadata service name/],
    ['metadata.goog', /metadata service name/],
    ['instance-data', /metadata service name/],
  ];
  for (const [host, why] of cases) {
    it(`refuses ${host}`, () => {
      const message = refused(everything, host);
      assert.match(message, why);
      assert.match(message, /refused whatever NODE_ALLOWED_NETWORKS says/);
    });
  }

  it('leaves loopback, private and public unicast addresses alone (empty allow list)', () => {
    const open = new NodeAddressPolicy({ allowed: [], resolver: noResolver });
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.10',
      '100.64.0.1',
      '::1',
      '2001:db8::1',
      'fd00::2',
    ])
      admitted(open, host);
    assert.equal(
      deniedAddress(parseIp('169.254.169.255') as NonNullable<ReturnType<typeof parseIp>>)?.range,
      '169.254.0.0/16',
    );
  });
});

describe('NODE_ALLOWED_NETWORKS', () => {
  const only2 = new NodeAddressPolicy({ allowed: ['127.0.0.2/32'], resolver: noResolver });

  it('refuses 127.0.0.1 in every spelling when only 127.0.0.2/32 is allowed', () => {
    for (const host of [
      '127.0.0.1',
      '0x7f000001',
      '2130706433',
      '017700000001',
      '127.1',
      '0x7f.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::1',
    ])
      assert.match(refused(only2, host), /outside NODE_ALLOWED_NETWORKS/, host);
    for (const host of ['127.0.0.2', '0x7f000002', '::ffff:127.0.0.2', '127.2']) admitted(only2, host);
  });

  it('is checked when the configuration loads: a wrong entry stops the start', () => {
    const ok = configSchema.safeParse({
      NODE_ALLOWED_NETWORKS: '10.0.0.0/8, 2001:db8::/32 ,*.example.com,cucm1',
    });
    assert.deepEqual(ok.data?.NODE_ALLOWED_NETWORKS, [
      '10.0.0.0/8',
      '2001:db8::/32',
      '*.example.com',
      'cucm1',
    ]);
    assert.deepEqual(configSchema.parse({}).NODE_ALLOWED_NETWORKS, []);
    const bad = configSchema.safeParse({ NODE_ALLOWED_NETWORKS: '10.0.0.0/8,10.0.0.0/40' });
    assert.equal(bad.success, false);
    assert.deepEqual(bad.error?.issues[0]?.path, ['NODE_ALLOWED_NETWORKS']);
  });

  it('admits names by exact match or *.domain, never by a digits-only name', () => {
    assert.deepEqual(parseAllowEntry('10.0.0.0/8'), {
      kind: 'range',
      range: { family: 4, base: 10n << 24n, bits: 8 },
    });
    assert.deepEqual(parseAllowEntry('CUCM-Pub.example.com.'), {
      kind: 'name',
      name: 'cucm-pub.example.com',
    });
    assert.deepEqual(parseAllowEntry('*.example.com'), { kind: 'suffix', suffix: '.example.com' });
    for (const bad of ['10.0.0.0/33', '::/129', '2130706433', 'a b', '*.', 'http://x', '*.*.example.com'])
      assert.equal(parseAllowEntry(bad), undefined, bad);
  });

  it('a name on the list admits what it resolves to, still never a refused address', async () => {
    const resolver: NodeResolver = (host) =>
      Promise.resolve(
        host === 'meta.example.com'
          ? [{ address: '169.254.169.254', family: 4 }]
          : [{ address: '127.0.0.1', family: 4 }],
      );
    const byName = new NodeAddressPolicy({ allowed: ['*.example.com', 'localhost'], resolver });
    const addressesOf = (host: string) => lookupAll(byName, host, 443);
    assert.deepEqual(await addressesOf('cucm.example.com'), ['127.0.0.1']);
    assert.deepEqual(await addressesOf('LOCALHOST.'), ['127.0.0.1']);
    await assert.rejects(addressesOf('example.com'), /outside NODE_ALLOWED_NETWORKS/);
    await assert.rejects(addressesOf('other.test'), /outside NODE_ALLOWED_NETWORKS/);
    await assert.rejects(addressesOf('meta.example.com'), /link-local/);
  });
});

describe("the server's own listening address and port", () => {
  it('refuses the exact listener at its port only', () => {
    const p = new NodeAddressPolicy({ allowed: [], resolver: noResolver });
    p.addListener('127.0.0.1', 8443);
    assert.match(refused(p, '127.0.0.1', 8443), /own listening address/);
    assert.match(refused(p, '::ffff:127.0.0.1', 8443), /own listening address/);
    assert.match(refused(p, '2130706433', 8443), /own listening address/);
    admitted(p, '127.0.0.1', 8444);
    admitted(p, '127.0.0.2', 8443);
  });

  it('a wildcard listener stands for every loopback and interface address at that port', () => {
    const p = new NodeAddressPolicy({ allowed: [], resolver: noResolver });
    p.addListener('::', 9443);
    for (const host of ['127.0.0.1', '127.0.0.5', '::1', '::ffff:127.0.0.1'])
      assert.match(refused(p, host, 9443), /own listening address/, host);
    admitted(p, '127.0.0.1', 9444);
  });
});

describe('store-time check', () => {
  const resolver: NodeResolver = (host) => {
    const table: Record<string, LookupAddress[]> = {
      'meta.test': [{ address: '169.254.169.254', family: 4 }],
      'mixed.test': [
        { address: '169.254.169.254', family: 4 },
        { address: '127.0.0.2', family: 4 },
      ],
      'loop.test': [{ address: '127.0.0.1', family: 4 }],
    };
    if (host === 'slow.test') return new Promise(() => undefined);
    const found = table[host];
    return found
      ? Promise.resolve(found)
      : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
  };
  const p = new NodeAddressPolicy({ allowed: ['127.0.0.2/32'], resolver, storeLookupMs: 50 });

  it('refuses a literal, a refused name, and a name whose every address is refused', async () => {
    await assert.rejects(p.checkStorable('2852039166', 443), NodeAddressDeniedError);
    await assert.rejects(p.checkStorable('metadata.google.internal', 80), NodeAddressDeniedError);
    await assert.rejects(
      p.checkStorable('meta.test', 443),
      /meta\.test:443 \(169\.254\.169\.254\): link-local/,
    );
    await assert.rejects(p.checkStorable('loop.test', 443), /outside NODE_ALLOWED_NETWORKS/);
  });

  it('stores a name that does not resolve (yet), resolves slowly, or has one allowed address', async () => {
    // slow.test never answers: only the resolution timeout ends the wait, and that timer is unref'd (it
    // must not hold a server's shutdown). Without a handle of its own the test's event loop could empty
    // first and the runner end the file mid-test, as it did on a loaded machine.
    const alive = setInterval(() => undefined, 1000);
    try {
      await p.checkStorable('not-yet.test', 443);
      await p.checkStorable('slow.test', 443);
      await p.checkStorable('mixed.test', 443);
      await p.checkStorable('127.0.0.2', 443);
    } finally {
      clearInterval(alive);
    }
  });
});

describe('the connection gets only checked addresses, resolved once', () => {
  const servers: Server[] = [];
  const conns: Socket[] = [];
  const accepted: Record<string, number> = {};
  const ports: Record<string, number> = {};
  before(async () => {
    for (const ip of ['127.0.0.1', '127.0.0.2']) {
      accepted[ip] = 0;
      const s = createServer((c) => {
        conns.push(c);
        accepted[ip] = (accepted[ip] ?? 0) + 1;
        c.on('error', () => undefined);
        c.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
      });
      await new Promise<void>((r) => s.listen(0, ip, r));
      ports[ip] = (s.address() as AddressInfo).port;
      servers.push(s);
    }
  });
  after(async () => {
    for (const c of conns) c.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  /** Answers each lookup of `host` with the next list: a rebinding DNS server. */
  function rebinding(...answers: string[][]): NodeResolver & { calls: number } {
    const r = Object.assign(
      (_host: string) => {
        const list = answers[Math.min(r.calls++, answers.length - 1)] ?? [];
        return Promise.resolve(list.map((address) => ({ address, family: 4 })));
      },
      { calls: 0 },
    );
    return r;
  }

  function open(policy: NodeAddressPolicy, host: string, port: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const s = connect({ host, port, ...policy.dialOptions(host, port) });
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
  }

  it('drops refused addresses and connects to the allowed one', async () => {
    const port = ports['127.0.0.2'] as number;
    const resolver = rebinding(['169.254.169.254', '127.0.0.1', '127.0.0.2']);
    const p = new NodeAddressPolicy({ allowed: ['127.0.0.2/32'], resolver });
    const s = await open(p, 'node.test', port);
    assert.equal(s.remoteAddress, '127.0.0.2');
    s.destroy();
    assert.equal(resolver.calls, 1);
  });

  it('a name rebound to a refused address after the check is refused, not connected', async () => {
    const port = ports['127.0.0.1'] as number;
    // Allowed when stored, then the DNS answer changes: the next connection resolves again, itself.
    const resolver = rebinding(['127.0.0.2'], ['127.0.0.1']);
    const p = new NodeAddressPolicy({ allowed: ['127.0.0.2/32'], resolver });
    await p.checkStorable('node.test', port);
    const before1 = accepted['127.0.0.1'];
    await assert.rejects(open(p, 'node.test', port), NodeAddressDeniedError);
    assert.equal(accepted['127.0.0.1'], before1, 'nothing reached 127.0.0.1');
    assert.equal(resolver.calls, 2);
  });

  it('each HTTP request of the transport uses the address its own lookup checked', async () => {
    const resolver = rebinding(['127.0.0.2'], ['127.0.0.1']);
    const addresses = new NodeAddressPolicy({ allowed: ['127.0.0.2/32'], resolver });
    // 127.0.0.1 and 127.0.0.2 listen on different ports; the one of 127.0.0.2 first, then the same port
    // resolved to 127.0.0.1: refused before any connection.
    const node = {
      host: 'phone.test',
      port: ports['127.0.0.2'] as number,
      username: 'u',
      password: 'p',
      addresses,
    };
    const req = { service: 'phone', method: 'GET', path: '/', timeoutMs: 2000 } as const;
    const first = await httpExchange(node, req);
    assert.equal(first.body.toString(), 'ok');
    const seen = { ...accepted };
    await assert.rejects(httpExchange(node, req), NodeAddressDeniedError);
    assert.deepEqual(accepted, seen, 'the second request reached nobody');
    assert.equal(resolver.calls, 2);
  });
});

function lookupAll(policy: NodeAddressPolicy, host: string, port: number): Promise<string[]> {
  return new Promise((resolve, reject) =>
    policy
      .dialOptions(host, port)
      .lookup(host, { all: true }, (err, addresses) =>
        err ? reject(err) : resolve((addresses as LookupAddress[]).map((a) => a.address)),
      ),
  );
}
