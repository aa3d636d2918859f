// AXL connections kept across tool calls keep their guarantees: one TLS connection (one handshake) serves
// call after call, and a credential or certificate pin changed in the vault takes effect on the next call,
// never after the kept connection ages out. The node's connections are counted by a loopback TCP relay in
// front of the lab (each new connection is a new TLS handshake; a reused one is none).
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AXLError, ConnectivityError, type ClientVault } from '../../../../kernel/sdk/index.ts';
import { AxlConnections } from '../../../../plugins/_shared/axl/connections.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import { generateSelfSigned } from '../../../helpers/self-signed.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import type { AxlLab } from './helpers.ts';
import { FAST_RETRY, startAxlLab } from './helpers.ts';
import { labTlsPin } from '../../../../lab/index.ts';

const HOST = 'cucm-pub';
const PHONE = 'SEP0A1B2C3D4E01';

interface Relay {
  port: number;
  /** TCP connections accepted so far: each one a TLS handshake with the node behind. */
  accepted(): number;
  close(): Promise<void>;
}

async function relayTo(port: number): Promise<Relay> {
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    accepted++;
    const outbound = connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('AXL connections across calls', () => {
  let t: AxlLab;
  let relay: Relay;
  let fx: VaultFixture;
  let vault: ClientVault;
  let conns: AxlConnections;
  let secret: { username: string; password: string; options: Record<string, string> };

  const getPhone = (): Promise<unknown> =>
    conns.with(vault, HOST, ({ client }) => client.call('getPhone', { name: PHONE }));

  before(async () => {
    t = await startAxlLab();
    await downloadAxlToolkit({ ...t.node, cache: t.cache, nodeVersion: '15.0', retry: FAST_RETRY });
    relay = await relayTo(t.node.port);
    fx = vaultFixture();
    vault = fx.vault.forClient('conn');
    secret = {
      username: t.node.username,
      password: t.node.password,
      options: { address: `127.0.0.1:${relay.port}`, ...labTlsPin(t.lab.info, t.cucm) },
    };
    await vault.store('cucm', 'axl', HOST, secret);
    conns = new AxlConnections({ product: 'cucm', cache: t.cache, retry: FAST_RETRY });
  });
  after(async () => {
    conns?.close();
    await relay?.close();
    await fx?.cleanup();
    await t?.stop();
  });

  it('reuses one TLS connection to the node for call after call', async () => {
    await getPhone();
    // The version probe has its own short-lived connection; the client's is the one that stays.
    const afterFirst = relay.accepted();
    assert.ok(afterFirst >= 1 && afterFirst <= 2, `${afterFirst} connections for the first call`);
    for (let i = 0; i < 8; i++) await getPhone();
    assert.equal(relay.accepted(), afterFirst, 'no new connection (no new TLS handshake) for later calls');
  });

  it('uses a changed password on the very next call', async () => {
    const before = relay.accepted();
    await vault.update('cucm', 'axl', HOST, { ...secret, password: `${secret.password}-wrong` });
    await assert.rejects(
      getPhone(),
      (e: unknown) => e instanceof AXLError && /authentication/.test(e.message),
    );
    assert.ok(relay.accepted() > before, 'the changed credential went out on a new connection');
    await vault.update('cucm', 'axl', HOST, secret);
    await getPhone();
  });

  it('uses a changed certificate pin on the very next call, kept connection or not', async () => {
    await getPhone();
    const other = generateSelfSigned(['127.0.0.1'], 30, 'not-the-node');
    await vault.update('cucm', 'axl', HOST, {
      ...secret,
      options: { address: secret.options.address as string, certPem: other.certPem },
    });
    await assert.rejects(
      getPhone(),
      (e: unknown) => e instanceof ConnectivityError && /pinned|certificate/i.test(e.message),
    );
    await vault.update('cucm', 'axl', HOST, secret);
    const before = relay.accepted();
    await getPhone();
    await getPhone();
    assert.ok(relay.accepted() - before <= 2, 'the restored credential connects once again and reuses it');
  });
});
