import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { connectModern } from '../../helpers/mcp-client-v2.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const AUDITOR = JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles/_default/auditor.json'), 'utf8')) as {
  tools: { allow: string[]; deny: string[] };
} & Record<string, unknown>;

/** A live copy of the shipped auditor under another name, so the test can edit it while clients are connected. */
function writeAuditCopy(stateDir: string, deny: string[]): void {
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  writeFileSync(
    join(stateDir, 'profiles', 'auditcopy.json'),
    JSON.stringify({ ...AUDITOR, name: 'auditcopy', tools: { allow: AUDITOR.tools.allow, deny } }),
  );
}

/** A tool that changes something on a node or in the vault (read-only tools say so in their annotations). */
const isWrite = (t: { annotations?: { readOnlyHint?: boolean } }): boolean =>
  t.annotations?.readOnlyHint !== true;

describe('tools/list holds what the caller may call', () => {
  const state = tempStateDir();
  let k: TestKernel;
  before(async () => {
    seedServerKeys(state.dir);
    writeAuditCopy(state.dir, []);
    // A standing view: this operator-profile client sees only its cucm reads, on every connection.
    mkdirSync(join(state.dir, 'clients', 'ro'), { recursive: true });
    writeFileSync(
      join(state.dir, 'clients', 'ro', 'client.json'),
      JSON.stringify({ toolsets: ['cucm', 'reports'], readOnly: true }),
    );
    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      license: { products: ['cucm', 'imp', 'cuc'], expiresInDays: 30 },
      env: {
        AUTH_CLIENTS: 'ada:admin:cucm+imp+cuc,aud:auditor:cucm,cop:auditcopy:cucm,ro:operator:cucm+imp+cuc',
        AUTH_BCRYPT_COST: '4',
      },
    });
  });
  after(async () => {
    await k.stop();
    state.cleanup();
  });

  type Listed = { name: string; annotations?: { readOnlyHint?: boolean } };
  const lists = async (who: string): Promise<{ legacy: Listed[]; modern: Listed[] }> => {
    const a = await connectMcp(k, startupToken(k.stateDir, who));
    const b = await connectModern(k, startupToken(k.stateDir, who));
    try {
      return {
        legacy: (await a.client.listTools()).tools,
        modern: (await b.client.listTools(undefined, { cacheMode: 'bypass' })).tools,
      };
    } finally {
      await a.close();
      await b.close();
    }
  };

  it('a cucm-only auditor sees no imp_/cuc_ tool and no tool its profile denies (both revisions)', async () => {
    const admin = await lists('ada');
    const aud = await lists('aud');
    for (const [revision, tools] of [
      ['2025-11-25', aud.legacy],
      ['2026-07-28', aud.modern],
    ] as const) {
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('infra_init_session'), `${revision}: infra tools always`);
      assert.ok(names.includes('cucm_axl_call'), `${revision}: the auditor's cucm reads`);
      assert.deepEqual(
        names.filter((n) => n.startsWith('imp_') || n.startsWith('cuc_')),
        [],
        `${revision}: nothing outside the client's product scope`,
      );
      // Its only tools not annotated read-only are those its allowlists bound to reads (AXL get/list,
      // show commands), the trace tool (reading levels; setting one needs admin) and the report writers,
      // which write the caller's own reports on the server.
      assert.deepEqual(
        tools
          .filter(isWrite)
          .map((t) => t.name)
          .sort(),
        [
          'common_export_report_pdf',
          'common_write_report',
          'cucm_axl_call',
          'cucm_os_run_command',
          'cucm_trace_level',
        ],
        `${revision}: no write tool the auditor profile leaves out`,
      );
      assert.ok(
        names.length * 2 < admin.legacy.length,
        `${revision}: ${names.length} of ${admin.legacy.length}`,
      );
    }
    assert.deepEqual(
      aud.legacy.map((t) => t.name),
      aud.modern.map((t) => t.name),
    );
    const adminNames = admin.legacy.map((t) => t.name);
    assert.deepEqual(
      adminNames,
      admin.modern.map((t) => t.name),
    );
    for (const n of ['imp_store_credentials', 'cuc_cupi_call', 'cucm_store_credentials'])
      assert.ok(adminNames.includes(n), `the admin sees ${n}`);
    assert.ok(admin.legacy.some(isWrite), 'the admin sees write tools');
  });

  it('every listed tool passes the call gate, and every tool left out is refused by it', async () => {
    const c = await connectMcp(k, startupToken(k.stateDir, 'aud'));
    try {
      const listed = new Set((await c.client.listTools()).tools.map((t) => t.name));
      for (const name of ['imp_get_version', 'cuc_cupi_list', 'cucm_store_credentials']) {
        assert.ok(!listed.has(name));
        const r = await c.call(name, {});
        assert.equal(r.isError, true);
        assert.equal(r.structuredContent?.error, 'ProfilePermissionError', name);
      }
    } finally {
      await c.close();
    }
  });

  it('editing the profile file changes the list without a reconnect; the 2025-11-25 session is told', async () => {
    const legacy = await connectMcp(k, startupToken(k.stateDir, 'cop'));
    const modern = await connectModern(k, startupToken(k.stateDir, 'cop'));
    let told = 0;
    legacy.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told++;
    });
    let heard = 0;
    modern.client.setNotificationHandler('notifications/tools/list_changed', () => {
      heard++;
    });
    const sub = await modern.client.listen({ toolsListChanged: true });
    try {
      const before = (await legacy.client.listTools()).tools.map((t) => t.name);
      assert.ok(before.includes('common_write_report') && before.includes('cucm_axl_call'));
      writeAuditCopy(k.stateDir, ['common_*', 'cucm_axl_call']);
      for (let i = 0; i < 150 && (told === 0 || heard === 0); i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(told > 0, 'the 2025-11-25 session received notifications/tools/list_changed');
      assert.ok(heard > 0, 'the 2026-07-28 subscription heard tools/list_changed');
      for (const names of [
        (await legacy.client.listTools()).tools.map((t) => t.name),
        (await modern.client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name),
      ]) {
        assert.ok(!names.some((n) => n.startsWith('common_')), 'the denied tools left the list');
        assert.ok(!names.includes('cucm_axl_call'));
        assert.ok(names.includes('cucm_get_version') && names.includes('infra_init_session'));
      }
    } finally {
      await sub.close();
      await legacy.close();
      await modern.close();
    }
  });

  it("client.json's toolsets and readOnly hold on every connection, which may narrow them but never widen", async () => {
    const ro = await lists('ro');
    for (const [revision, tools] of [
      ['2025-11-25', ro.legacy],
      ['2026-07-28', ro.modern],
    ] as const) {
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('cucm_get_version') && names.includes('common_read_report'), revision);
      assert.ok(names.includes('infra_init_session'), `${revision}: infra tools always`);
      assert.deepEqual(tools.filter(isWrite), [], `${revision}: read-only tools only`);
      assert.deepEqual(
        names.filter((n) => n.startsWith('imp_') || n.startsWith('cuc_') || n.includes('credentials')),
        [],
        `${revision}: only the cucm and reports toolsets`,
      );
    }
    // A connection asking for another toolset gets the intersection (infra only), not the union.
    const wider = await connectMcp(k, startupToken(k.stateDir, 'ro'), '/mcp?toolsets=imp');
    try {
      const names = (await wider.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.length > 0 && names.every((n) => n.startsWith('infra_')), names.join(','));
      const r = await wider.call('imp_get_version', { host: 'imp.lab.test' });
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
    } finally {
      await wider.close();
    }
    // The call gate holds the same line: a write tool its operator profile grants is refused.
    const c = await connectMcp(k, startupToken(k.stateDir, 'ro'));
    try {
      const r = await c.call('cucm_store_credentials', {
        host: 'cucm.lab.test',
        username: 'u',
        password: 'p',
      });
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
      assert.match(JSON.stringify(r.content), /client\.json/);
    } finally {
      await c.close();
    }
  });
});
