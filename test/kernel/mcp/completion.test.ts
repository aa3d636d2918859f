// completion/complete through real clients of both revisions: an argument named `host` (of any prompt or
// resource template) suggests the caller's own stored hosts, never another client's, by prefix and at
// most 100; an argument named `operation` suggests the AXL operations of the cached schema, only to a
// caller that may use an AXL product.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import { connectModern, type ModernClient } from '../../helpers/mcp-client-v2.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import { labCredential, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'completion-plugins');
/** More hosts than one answer may carry, stored for the admin before the server starts. */
const BULK = Array.from({ length: 120 }, (_, i) => `bulk-${String(i).padStart(3, '0')}.example.com`);

type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
type Completion = { values: string[]; total?: number; hasMore?: boolean };
interface Completer {
  complete(p: { ref: Ref; argument: { name: string; value: string } }): Promise<{ completion: Completion }>;
}

const AUDIT: Ref = { type: 'ref/prompt', name: 'cucm_security_audit' };
const CHANGE: Ref = { type: 'ref/prompt', name: 'common_test_change' };
const NOTES: Ref = { type: 'ref/resource', uri: 'common://test-host-notes/{host}' };

async function seedBulkHosts(stateDir: string): Promise<void> {
  const paths = statePaths(stateDir);
  const audit = new AuditLog({ path: paths.auditLog, maxBytes: 5_242_880, maxFiles: 5 });
  const vault = Vault.open(paths, audit, bunyan.createLogger({ name: 'seed', streams: [] }));
  const view = vault.forClient('admin1', { ip: '127.0.0.1' });
  try {
    for (const host of BULK)
      await view.store('cucm', 'axl', host, {
        username: 'u',
        password: 'p',
        options: { address: '127.0.0.1:1' },
      });
  } finally {
    await audit.close();
  }
}

describe('completion/complete suggests by argument name', () => {
  const state = tempStateDir('ucmcp-completion-');
  let s: ProductStack;
  let modern: ModernClient;
  let labCucmHosts: string[];

  before(async () => {
    await seedBulkHosts(state.dir);
    s = await startProductStack({ stateDir: state.dir, extraPluginDirs: [FIXTURES] });
    modern = await connectModern(s.k, startupToken(s.k.stateDir, 'auditor1'));
    // The auditor's seeded vault: every lab node's credentials, phones under cucm.
    labCucmHosts = s.lab.info.nodes
      .filter((n) => (n.product === 'phone' ? n.credentials.phone : n.product === 'cucm'))
      .map((n) => n.name.toLowerCase())
      .sort();
  });

  after(async () => {
    await modern?.close();
    await s?.stop();
    state.cleanup();
  });

  const ask = async (c: Completer, ref: Ref, name: string, value = ''): Promise<Completion> =>
    (await c.complete({ ref, argument: { name, value } })).completion;

  it('host: the caller’s own stored hosts of the prompt’s product, on both revisions', async () => {
    for (const c of [s.mcp.auditor.client, modern.client] as Completer[]) {
      const got = await ask(c, AUDIT, 'host');
      assert.deepEqual([...got.values].sort(), labCucmHosts);
      assert.equal(got.hasMore, false);
      // Another client's hosts (the admin's) are never suggested, whatever the prefix.
      assert.deepEqual((await ask(c, AUDIT, 'host', 'bulk-')).values, []);
      // The template variable named host gets the same, across the caller's products.
      const notes = await ask(c, NOTES, 'host');
      for (const h of labCucmHosts) assert.ok(notes.values.includes(h), h);
      assert.ok(
        notes.values.some((h) =>
          s.lab.info.nodes.some((n) => n.product === 'cuc' && n.name.toLowerCase() === h),
        ),
      );
      assert.ok(!notes.values.some((h) => h.startsWith('bulk-')));
    }
  });

  it('host: filtered by prefix, case-insensitively, and bounded to 100 with total and hasMore', async () => {
    const [first] = labCucmHosts;
    assert.ok(first);
    const prefix = first.slice(0, 3).toUpperCase();
    const got = await ask(s.mcp.auditor.client as Completer, AUDIT, 'host', prefix);
    assert.ok(got.values.length > 0);
    for (const v of got.values) assert.ok(v.toLowerCase().startsWith(prefix.toLowerCase()), v);

    for (const c of [s.mcp.admin.client as Completer]) {
      const all = await ask(c, AUDIT, 'host');
      assert.equal(all.values.length, 100);
      assert.equal(all.total, BULK.length);
      assert.equal(all.hasMore, true);
      assert.deepEqual(all.values, BULK.slice(0, 100));
      const some = await ask(c, AUDIT, 'host', 'bulk-11');
      assert.deepEqual(
        some.values,
        BULK.filter((h) => h.startsWith('bulk-11')),
      );
      assert.equal(some.hasMore, false);
      // The lab nodes are the auditor's and the operator's, not the admin's.
      assert.ok(!all.values.some((h) => labCucmHosts.includes(h)));
    }
    // An argument's own suggestions still come first, in their order.
    assert.deepEqual((await ask(s.mcp.admin.client as Completer, CHANGE, 'mode')).values, ['dry', 'run']);
  });

  it('operation: the AXL operations of the cached schema, by prefix, for callers of an AXL product', async () => {
    const before = await ask(s.mcp.admin.client as Completer, CHANGE, 'operation', 'getPh');
    assert.deepEqual(before.values, [], 'no schema is cached yet');
    const cucm = s.node('cucm');
    await s.ok('admin', 'cucm_store_credentials', labCredential(s.lab, cucm, 'axl'));
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    for (const c of [s.mcp.admin.client, modern.client] as Completer[]) {
      const got = await ask(c, CHANGE, 'operation', 'getph');
      assert.ok(got.values.includes('getPhone'), got.values.join(', '));
      for (const v of got.values) assert.ok(v.toLowerCase().startsWith('getph'), v);
      // The cached operations in order: the first 100 (MCP's most a completion may hold), with the total.
      const all = await ask(c, CHANGE, 'operation');
      assert.equal(all.values.length, 100);
      assert.ok(all.total !== undefined && all.total > 250, String(all.total));
      assert.equal(all.hasMore, true);
      assert.deepEqual(all.values, [...all.values].sort());
    }
    // A client scoped to Unity Connection may use no AXL product: nothing is suggested.
    assert.deepEqual((await ask(s.scoped.client as Completer, CHANGE, 'operation', 'get')).values, []);
    // The admin's own stored hosts now include the lab CUCM, for the change prompt too.
    const hosts = await ask(s.mcp.admin.client as Completer, CHANGE, 'host', cucm.name.slice(0, 4));
    assert.ok(hosts.values.includes(cucm.name.toLowerCase()), hosts.values.join(', '));
  });

  it('nothing for a prompt the caller may not see, or an argument it does not have', async () => {
    // The operator's profile does not get the audit prompts.
    assert.deepEqual((await ask(s.mcp.operator.client as Completer, AUDIT, 'host')).values, []);
    assert.deepEqual((await ask(s.mcp.auditor.client as Completer, AUDIT, 'nonexistent')).values, []);
    assert.deepEqual(
      (
        await ask(
          s.mcp.auditor.client as Completer,
          { type: 'ref/resource', uri: 'common://nope/{host}' },
          'host',
        )
      ).values,
      [],
    );
  });
});
