// The whole product stack for end-to-end tests: the lab, a real kernel with every shipped plugin and a
// license for all products, and real MCP clients for the admin, operator and auditor profiles. The
// lab's credentials are stored through the product tools themselves, as an operator would.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { startTestLab } from '../lab/helpers.ts';
import type { Lab, LabNodeInfo, LabOptions, LabProduct } from '../../lab/index.ts';
import { labNode, labTlsPin } from '../../lab/index.ts';
import { seedVault } from '../../lab/demo/seed-vault.ts';
import type { NodeResolver } from '../../kernel/net/node-address-policy.ts';
import { startTestKernel, type TestKernel } from './kernel.ts';
import { seedServerKeys } from './keys.ts';
import { freePort } from './server-process.ts';
import { tempStateDir } from './state-dir.ts';
import { connectMcp, httpRefusal, startupToken, type ConnectedClient } from './mcp-client.ts';

export type Role = 'admin' | 'operator' | 'auditor';
export const ROLES: readonly Role[] = ['admin', 'operator', 'auditor'];

export interface ProductStack {
  lab: Lab;
  k: TestKernel;
  /** One MCP client per profile; the client names are `<role>1`. */
  mcp: Record<Role, ConnectedClient>;
  /** An admin-profile client (`scoped1`) whose product scope is only `scopedProducts`. */
  scoped: ConnectedClient;
  node(product: LabProduct, name?: string): LabNodeInfo;
  /** Audit records written since `mark()` (or since start). */
  auditSince(mark: number): Record<string, unknown>[];
  mark(): number;
  /** The serviceability operations (`<ApiName>.<operation>`) the lab's nodes received since its request `from`. */
  serviceabilityOps(from: number): string[];
  /** Calls a tool and fails the test with its error when it errs. */
  ok(role: Role, tool: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * Previews a change (`dry_run: true`, which must succeed) and returns `args` with the preview's
   * `plan_id`: what a change the profile must confirm is called with.
   */
  plan(role: Role, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls a tool that must fail; returns its error code and message. */
  fails(
    role: Role,
    tool: string,
    args?: Record<string, unknown>,
  ): Promise<{ error: string; message: string }>;
  stop(): Promise<void>;
}

export interface StackOptions {
  lab?: LabOptions;
  env?: Record<string, string>;
  /**
   * Roles whose vault gets every lab credential before the server starts (as `npm run demo` does).
   * Their nodes' SSH host keys are pinned too. Default: operator and auditor, who may not decide on
   * host keys (nor, the auditor, store credentials); the admin goes through the tools.
   */
  seedVaultFor?: Role[];
  /** Product scope of the `scoped1` admin client (default cuc), to show refusals by product scope. */
  scopedProducts?: string;
  /** Run in this (existing, empty) state directory instead of a fresh temporary one; left in place. */
  stateDir?: string;
  /** How the kernel resolves node names (default: `localhost` only, see startTestKernel). */
  nodeResolver?: NodeResolver;
  /** Further folders of plugin bundles (test fixtures) beside the shipped ones. */
  extraPluginDirs?: string[];
  /** Products whose first node is made ready for the admin (prepareNode) once the stack is up, in order. */
  prepare?: PreparedProduct[];
  /** Seed the subscribers' credentials too (every node of each cluster), as the demo does. */
  seedSubscribers?: boolean;
}

export type PreparedProduct = 'cucm' | 'imp' | 'cuc';

// Stacks still running when a test file ends: a `before` hook that failed half-way leaves its stack
// unassigned, so the file's own `after(() => s.stop())` cannot stop it, and its open servers would keep
// the file's process (and `npm test`) alive for ever. The root hook stops whatever is left.
// Only in a test file: a script that starts a stack itself (a probe a test spawns) must not become a
// test run of its own, printing a report on its standard output.
const running = new Set<() => Promise<void>>();
if (/\.test(-fixture)?\.ts$/.test(process.argv[1] ?? ''))
  after(async () => {
    for (const stop of [...running]) await stop().catch(() => undefined);
  });

export async function startProductStack(o: StackOptions = {}): Promise<ProductStack> {
  const s = await startStack(o);
  try {
    for (const product of o.prepare ?? []) await prepareNode(s, product);
  } catch (err) {
    await s.stop();
    throw err;
  }
  return s;
}

async function startStack(o: StackOptions): Promise<ProductStack> {
  const lab = await startTestLab(o.lab ?? {});
  const state = o.stateDir ? { dir: o.stateDir, cleanup: () => undefined } : tempStateDir('ucmcp-stack-');
  let k: TestKernel | undefined;
  try {
    seedServerKeys(state.dir);
    const seeded = o.seedVaultFor ?? ['operator', 'auditor'];
    if (seeded.length > 0)
      await seedVault(
        state.dir,
        seeded.map((r) => `${r}1`),
        lab.info,
        o.seedSubscribers ? { subscribers: true } : {},
      );
    k = await startTestKernel({
      stateDir: state.dir,
      env: {
        AUTH_CLIENTS: [
          ...ROLES.map((r) => `${r}1:${r}:cucm+imp+cuc`),
          `scoped1:admin:${o.scopedProducts ?? 'cuc'}`,
        ].join(','),
        AUTH_BCRYPT_COST: '4',
        ...o.env,
      },
      license: { products: ['cucm', 'imp', 'cuc'] },
      ...(o.nodeResolver ? { nodeResolver: o.nodeResolver } : {}),
      ...(o.extraPluginDirs ? { extraPluginDirs: o.extraPluginDirs } : {}),
    });
    const kernel = k;
    const mcp = {} as Record<Role, ConnectedClient>;
    for (const r of ROLES) mcp[r] = await connectMcp(kernel, startupToken(kernel.stateDir, `${r}1`));
    const scoped = await connectMcp(kernel, startupToken(kernel.stateDir, 'scoped1'));
    const call = (role: Role, tool: string, args: Record<string, unknown> = {}) => mcp[role].call(tool, args);
    let stopped: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopped ??= (async () => {
        running.delete(stop);
        for (const c of [...Object.values(mcp), scoped]) await c.close().catch(() => undefined);
        await kernel.stop();
        await lab.stop();
        state.cleanup();
      })());
    running.add(stop);
    return {
      lab,
      k: kernel,
      mcp,
      scoped,
      node: (product, name) => labNode(lab.info, product, name),
      mark: () => kernel.auditRecords().length,
      auditSince: (mark) => kernel.auditRecords().slice(mark),
      serviceabilityOps: (from) =>
        lab.state.log.requests
          .slice(from)
          .filter((r) => r.service === 'serviceability')
          .map((r) => r.operation ?? ''),
      async ok(role, tool, args = {}) {
        const r = await call(role, tool, args);
        assert.equal(
          r.isError,
          undefined,
          `${tool} as ${role}: ${JSON.stringify(r.structuredContent ?? r.content)}`,
        );
        return r.structuredContent ?? {};
      },
      async plan(role, tool, args) {
        const r = await call(role, tool, { ...args, dry_run: true });
        const planId = r.structuredContent?.plan_id;
        assert.ok(
          !r.isError && typeof planId === 'string',
          `${tool} preview: ${JSON.stringify(r.structuredContent)}`,
        );
        return { ...args, plan_id: planId };
      },
      async fails(role, tool, args = {}) {
        // A rate-limited call is refused at the HTTP level (429), the others in the tool result.
        const r = await call(role, tool, args).catch((err: unknown) => {
          const refused = httpRefusal(err);
          if (!refused) throw err;
          return { isError: true, structuredContent: refused, content: [] };
        });
        assert.equal(
          r.isError,
          true,
          `${tool} as ${role} should fail: ${JSON.stringify(r.structuredContent)}`,
        );
        const s = r.structuredContent as { error: string; message: string };
        return { error: s.error, message: s.message };
      },
      stop,
    };
  } catch (err) {
    await k?.stop().catch(() => undefined);
    await lab.stop();
    state.cleanup();
    throw err;
  }
}

/**
 * The credential arguments that pin a lab node's HTTPS: its own certificate as `cert_pem` (the lab's
 * default self-signed nodes), or the lab CA as `ca_cert_pem`; nothing for a phone (plain HTTP).
 */
export function labPinArgs(lab: Lab, node: LabNodeInfo): { cert_pem?: string; ca_cert_pem?: string } {
  const pin = labTlsPin(lab.info, node);
  return {
    ...(pin.certPem ? { cert_pem: pin.certPem } : {}),
    ...(pin.caCertPem ? { ca_cert_pem: pin.caCertPem } : {}),
  };
}

/** Credential arguments for a lab node's service, keyed by the node's name, as the demo stores them. */
export function labCredential(
  lab: Lab,
  node: LabNodeInfo,
  kind: 'axl' | 'os' | 'phone' | 'cupi',
): Record<string, unknown> {
  const cred = node.credentials[kind];
  assert.ok(cred, `${node.name} has no ${kind} credentials`);
  const port = kind === 'os' ? node.ports.ssh : kind === 'phone' ? node.ports.http : node.ports.https;
  assert.ok(port, `${node.name} has no port for ${kind}`);
  return {
    host: node.name,
    username: cred.user,
    password: cred.password,
    address: `${node.host}:${port}`,
    ...(kind === 'os' ? {} : labPinArgs(lab, node)),
  };
}

/**
 * Gets a lab CUCM, IM&P or Unity Connection node ready for the admin (the other roles were seeded):
 * AXL (CUPI for CUC) and OS credentials stored through the tools, the AXL toolkit downloaded once (the
 * schema cache serves every client), the first SSH contact recorded by a connectivity check and the
 * presented key trusted.
 */
export async function prepareNode(s: ProductStack, product: PreparedProduct): Promise<LabNodeInfo> {
  const node = s.node(product);
  await s.ok(
    'admin',
    `${product}_store_credentials`,
    labCredential(s.lab, node, product === 'cuc' ? 'cupi' : 'axl'),
  );
  await s.ok('admin', `${product}_os_store_credentials`, labCredential(s.lab, node, 'os'));
  if (product !== 'cuc') await s.ok('admin', `${product}_download_axl_toolkit`, { host: node.name });
  const check = await s.ok('admin', `${product}_check_connectivity`, { host: node.name });
  const ssh = (check.services as Record<string, Record<string, unknown>>).ssh;
  assert.equal(ssh?.host_key, 'unknown', JSON.stringify(ssh));
  assert.equal(ssh?.presented_fingerprint, node.sshHostKeyFingerprint);
  await s.ok('admin', `${product}_os_trust_fingerprint`, {
    host: node.name,
    fingerprint: node.sshHostKeyFingerprint,
    action: 'trust',
  });
  return node;
}

/**
 * A node that is down, as the admin sees it: the admin's credential for `host` (a copy of `like`'s AXL
 * credential, CUPI on Unity Connection) at a loopback address where nothing listens.
 */
export async function storeUnreachableNode(s: ProductStack, like: LabNodeInfo, host: string): Promise<void> {
  const product = like.product as PreparedProduct;
  await s.ok('admin', `${product}_store_credentials`, {
    ...labCredential(s.lab, like, product === 'cuc' ? 'cupi' : 'axl'),
    host,
    address: `127.0.0.1:${await freePort()}`,
  });
}

/** prepareNode for the CUCM, plus the admin's phone credentials for the first lab phone. */
export async function prepareCucm(s: ProductStack): Promise<LabNodeInfo> {
  await s.ok('admin', 'cucm_phone_store_credentials', labCredential(s.lab, s.node('phone'), 'phone'));
  return prepareNode(s, 'cucm');
}

/**
 * Every tool of a product refused for a client outside its product scope (even with the admin
 * profile): a DENIED answer, nothing sent to the node, and an ACTIONS record naming the host.
 */
export async function assertRefusedOutsideScope(
  s: ProductStack,
  tools: string[],
  host: string,
): Promise<void> {
  const mark = s.mark();
  const sent = s.lab.state.log.requests.length + s.lab.state.log.commands.length;
  for (const tool of tools) {
    const r = await s.scoped.call(tool, { host });
    assert.equal(r.isError, true, tool);
    assert.equal((r.structuredContent as { error: string }).error, 'ProfilePermissionError', tool);
  }
  assert.equal(s.lab.state.log.requests.length + s.lab.state.log.commands.length, sent, 'nothing was sent');
  const denied = s.auditSince(mark).filter((r) => r.event === 'ACTIONS' && r.client === 'scoped1');
  assert.deepEqual(
    denied.map((r) => [r.tool_name, r.result, r.host]),
    tools.map((t) => [t, 'DENIED', host]),
  );
}
