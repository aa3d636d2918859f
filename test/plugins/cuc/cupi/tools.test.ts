// The three CUPI tools below the MCP layer: their allowlist subjects (canonical, unsafe paths thrown
// before the allowlist is consulted) against the shipped profiles, and their reply shapes on the lab.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Lab } from '../../../../lab/index.ts';
import { MemoryPlanStore } from '../../../../kernel/changes/plan-store.ts';
import { plansView } from '../../../../kernel/changes/views.ts';
import { allowlisted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema, type Profile } from '../../../../kernel/rbac/profile-schema.ts';
import type { ClientVault, ToolContext, ToolDefinition, ZodShape } from '../../../../kernel/sdk/index.ts';
import { BadRequestError, CUPIError, z } from '../../../../kernel/sdk/index.ts';
import { CupiClients } from '../../../../plugins/cuc/cupi/cupi-clients.ts';
import type { CucShared } from '../../../../plugins/cuc/shared.ts';
import cupiCall from '../../../../plugins/cuc/tools/cupi-call.ts';
import cupiList from '../../../../plugins/cuc/tools/cupi-list.ts';
import getVersion from '../../../../plugins/cuc/tools/get-version.ts';
import { repoRoot, startTestLab } from '../../../lab/helpers.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { HOSTILE } from './hostile-paths.ts';
import { storeLabCupi } from './lab-cupi-vault.ts';

type Tool = ToolDefinition<ZodShape, CucShared>;

function subjectOf(tool: Tool, input: Record<string, unknown>): string {
  const access = tool.access;
  assert.ok(
    'allowlist' in access && access.allowlist === 'cupi',
    `${tool.name} is checked against the CUPI allowlist`,
  );
  // As the kernel does: validation first, then the subject of the validated input.
  return access.subject(z.object(tool.input).parse(input) as Record<string, unknown>);
}

const profile = (name: string): Profile =>
  profileSchema.parse(
    JSON.parse(readFileSync(join(repoRoot, 'profiles', '_default', `${name}.json`), 'utf8')),
  );

describe('CUPI tool subjects', () => {
  it('are "METHOD /vmrest/<canonical path>" whatever the spelling', () => {
    assert.equal(
      subjectOf(cupiCall, { host: 'h', method: 'GET', path: '/vmrest/%75sers/' }),
      'GET /vmrest/users',
    );
    assert.equal(
      subjectOf(cupiCall, { host: 'h', method: 'DELETE', path: '/vmrest/users/abc' }),
      'DELETE /vmrest/users/abc',
    );
    assert.equal(
      subjectOf(cupiList, { host: 'h', resource: 'handlers/callhandlers/' }),
      'GET /vmrest/handlers/callhandlers',
    );
    assert.equal(subjectOf(cupiList, { host: 'h', resource: '/vmrest/users' }), 'GET /vmrest/users');
    assert.deepEqual(getVersion.access, { minProfile: 'auditor' });
  });

  it('throw BAD_REQUEST for every hostile path, before any allowlist sees it', () => {
    for (const [path, why] of HOSTILE) {
      if (path.length > 2048 || path === '') continue; // refused by the input schema already
      assert.throws(() => subjectOf(cupiCall, { host: 'h', method: 'GET', path }), BadRequestError, why);
    }
    for (const resource of ['../axl', '/axl', '%2e%2e', 'users/..%2f..', 'users?x', 'users#x'])
      assert.throws(() => subjectOf(cupiList, { host: 'h', resource }), BadRequestError, resource);
  });

  it('match the shipped profiles: admin all methods, operator no DELETE, auditor GET only', () => {
    const [admin, operator, auditor] = ['admin', 'operator', 'auditor'].map(profile) as [
      Profile,
      Profile,
      Profile,
    ];
    const s = (method: string, path: string) => subjectOf(cupiCall, { host: 'h', method, path });
    assert.ok(allowlisted(admin, 'cupi', s('DELETE', '/vmrest/users/x')));
    assert.ok(allowlisted(operator, 'cupi', s('PUT', '/vmrest/users/x')));
    assert.ok(!allowlisted(operator, 'cupi', s('DELETE', '/vmrest/users/x')));
    assert.ok(allowlisted(auditor, 'cupi', s('GET', '/vmrest/%75sers')));
    assert.ok(!allowlisted(auditor, 'cupi', s('POST', '/vmrest/users')));
    assert.ok(allowlisted(auditor, 'cupi', subjectOf(cupiList, { host: 'h', resource: 'users' })));
  });
});

describe('CUPI tool replies on the lab', () => {
  let lab: Lab;
  let vf: VaultFixture;
  let vault: ClientVault;
  let cupi: CupiClients;
  const HOST = 'cuc-pub.lab.example';

  before(async () => {
    lab = await startTestLab();
    vf = vaultFixture();
    vault = vf.vault.forClient('tools');
    await storeLabCupi(vault, lab, HOST);
    cupi = new CupiClients({ retry: { backoffMs: [5] } });
  });
  after(async () => {
    cupi.close();
    await lab.stop();
    await vf.cleanup();
  });

  let recorded = 0;
  const plans = plansView(new MemoryPlanStore({ ttlMs: 60_000, perClient: 10 }), {
    client: 'admin1',
    tool: 'cuc_cupi_call',
  });
  const run = async (tool: Tool, raw: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const input = z.object(tool.input).parse(raw);
    const noop = (): void => undefined;
    const log = { trace: noop, debug: noop, info: noop, warn: noop, error: noop };
    // The change gate's part of the context: an admin (writes: direct), its journal in memory.
    const gate = {
      caller: { name: 'admin1', profile: 'admin', products: ['cuc'] },
      kernel: { permissions: () => ({ writes: 'direct' }) },
      input: {
        accepts: { elicitation: false, sampling: false, roots: false, elicitationUrl: false },
        responses: {},
      },
      changes: { record: (e: object) => Promise.resolve({ ...e, id: `c${++recorded}` }) },
      plans,
      confirmed: noop,
    };
    const ctx = { shared: { cupi }, vault, log, ...gate } as unknown as ToolContext<CucShared>;
    const reply = await tool.handler(input, ctx);
    assert.ok(reply.structured, `${tool.name} replies with structured content`);
    return reply.structured;
  };

  it('cuc_get_version: host, name and version', async () => {
    assert.deepEqual(await run(getVersion, { host: HOST }), {
      host: HOST,
      name: 'Cisco Unity Connection Version',
      version: '15.0.1.10000-1',
    });
  });

  it('cuc_cupi_list: the page with total, count, more and items as an array', async () => {
    const one = await run(cupiList, { host: HOST, resource: 'users', query: '(alias is mlee)' });
    assert.deepEqual(
      { ...one, items: (one.items as { Alias: string }[]).map((u) => u.Alias) },
      {
        host: HOST,
        resource: '/vmrest/users',
        total: 1,
        page: 1,
        rows_per_page: 100,
        count: 1,
        more: false,
        complete: true,
        object_name: 'User',
        items: ['mlee'],
      },
    );
    const first = await run(cupiList, { host: HOST, resource: 'users', sort: '(alias asc)', rowsPerPage: 4 });
    assert.equal(first.count, 4);
    assert.equal(first.more, true);
    assert.equal(first.complete, false);
    assert.equal(typeof first.cursor, 'string', 'a cursor to the next page');
    const none = await run(cupiList, { host: HOST, resource: 'users', query: '(alias is nobody)' });
    assert.deepEqual([none.total, none.count, none.more, none.items], [0, 0, false, []]);
  });

  it('cuc_cupi_call: status, location and its path, body; 204 without body; CUPIError on 404', async () => {
    const created = await run(cupiCall, {
      host: HOST,
      method: 'POST',
      path: '/vmrest/users',
      query: { templateAlias: 'voicemailusertemplate' },
      body: { Alias: 'tool.user', DtmfAccessId: '7002' },
    });
    assert.equal(created.status, 201);
    const id = String(created.location).split('/').pop() as string;
    assert.equal(created.location_path, `/vmrest/users/${id}`);
    assert.equal(created.body, `/vmrest/users/${id}`);
    const got = await run(cupiCall, { host: HOST, method: 'GET', path: created.location_path });
    assert.equal((got.body as { Alias: string }).Alias, 'tool.user');
    assert.equal(got.path, `/vmrest/users/${id}`);
    // Destructive: previewed, then sent with the preview's plan_id.
    const remove = { host: HOST, method: 'DELETE', path: `/vmrest/users/${id}` };
    const dry = await run(cupiCall, { ...remove, dry_run: true });
    const deleted = await run(cupiCall, { ...remove, plan_id: dry.plan_id });
    assert.deepEqual(deleted, {
      host: HOST,
      method: 'DELETE',
      path: `/vmrest/users/${id}`,
      status: 204,
      change_class: 'destructive',
      change_id: 'c2',
      confirmed_by: { how: 'plan', who: 'admin1' },
    });
    await assert.rejects(
      run(cupiCall, { host: HOST, method: 'GET', path: `/vmrest/users/${id}` }),
      CUPIError,
    );
  });
});
