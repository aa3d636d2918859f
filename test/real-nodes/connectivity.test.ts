// Integration tests against real managed nodes (CUCM, IM&P, Unity Connection), run by
// scripts/run_tests.ts with the credentials store_integration_credentials put in the vault of the
// integration-test client. Skipped in the ordinary suite. The server under test runs on a throw-away
// state directory holding a copy of that client's vault (and the master secret that opens it), so the
// operator's installation is never written to.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { statePaths } from '../../kernel/paths.ts';
import { masterSecretPath } from '../../kernel/vault/index.ts';
import { startTestKernel, type TestKernel } from '../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../helpers/mcp-client.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

const SOURCE = process.env.UC_INTEGRATION_STATE_DIR;
const CLIENT = process.env.UC_INTEGRATION_CLIENT || 'integration-test';
const PRODUCTS = ['cucm', 'imp', 'cuc'] as const;
/** Which connectivity probe a stored credential kind answers for (phones have no probe). */
const SERVICE_OF_KIND: Record<string, string | undefined> = { axl: 'axl', cupi: 'cupi', os: 'ssh' };

type Product = (typeof PRODUCTS)[number];
type Stored = { product: Product; host: string; kinds: string[] };

describe('real managed nodes', { skip: SOURCE ? false : 'run by scripts/run_tests.ts --integration' }, () => {
  let state: { dir: string; cleanup: () => void };
  let k: TestKernel;
  let mcp: ConnectedClient;
  /** Every node the client has credentials for, with the kinds stored. */
  const nodes: Stored[] = [];

  before(async () => {
    const source = statePaths(SOURCE as string);
    const vault = join(source.clients, CLIENT, 'vault');
    assert.ok(existsSync(vault), `no vault for ${CLIENT} in ${source.root}`);
    state = tempStateDir('ucmcp-real-nodes-');
    const target = statePaths(state.dir);
    mkdirSync(dirname(masterSecretPath(target)), { recursive: true, mode: 0o700 });
    cpSync(masterSecretPath(source), masterSecretPath(target));
    cpSync(vault, join(target.clients, CLIENT, 'vault'), { recursive: true });
    k = await startTestKernel({
      stateDir: state.dir,
      env: { AUTH_CLIENTS: `${CLIENT}:admin:cucm+imp+cuc`, AUTH_BCRYPT_COST: '4' },
      license: { products: [...PRODUCTS] },
    });
    mcp = await connectMcp(k, startupToken(state.dir, CLIENT));
    for (const product of PRODUCTS) {
      const listed = await mcp.call(`${product}_list_credentials`);
      assert.equal(listed.isError, undefined, JSON.stringify(listed.structuredContent));
      const creds = (listed.structuredContent?.credentials ?? []) as { kind: string; host: string }[];
      for (const c of creds) {
        const node = nodes.find((n) => n.product === product && n.host === c.host);
        if (node) node.kinds.push(c.kind);
        else nodes.push({ product, host: c.host, kinds: [c.kind] });
      }
    }
    // The AXL schema of each node's version comes from the node itself, into the throw-away cache.
    for (const n of nodes.filter((x) => x.kinds.includes('axl'))) {
      const r = await mcp.call(`${n.product}_download_axl_toolkit`, { host: n.host });
      assert.equal(r.isError, undefined, `${n.product} ${n.host}: ${JSON.stringify(r.structuredContent)}`);
    }
  });
  after(async () => {
    await mcp?.close().catch(() => undefined);
    await k?.stop();
    state?.cleanup();
  });

  it('every stored credential works: each node answers its connectivity check for the kinds stored', async () => {
    let checked = 0;
    for (const n of nodes) {
      const r = await mcp.call(`${n.product}_check_connectivity`, { host: n.host });
      const services = (r.structuredContent?.services ?? {}) as Record<string, { ok: boolean }>;
      for (const kind of n.kinds) {
        const service = SERVICE_OF_KIND[kind];
        if (!service) continue;
        assert.equal(
          services[service]?.ok,
          true,
          `${n.product} ${n.host} ${service}: ${JSON.stringify(services[service])}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 0, `no credential of ${CLIENT} could be checked`);
  });

  it('every node with AXL or CUPI credentials reports its version', async () => {
    for (const n of nodes.filter((x) => x.kinds.includes('axl') || x.kinds.includes('cupi'))) {
      const r = await mcp.call(`${n.product}_get_version`, { host: n.host });
      assert.equal(r.isError, undefined, `${n.product} ${n.host}: ${JSON.stringify(r.structuredContent)}`);
      assert.match(JSON.stringify(r.structuredContent), /\d+\.\d+/);
    }
  });
});
