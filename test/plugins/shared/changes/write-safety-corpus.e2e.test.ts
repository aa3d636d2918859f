// Issue 23's corpus through real MCP clients against the lab: for every change kind of the shared corpus
// (AXL phones, lines, users, route patterns, partitions, CSS, trunks, hunt pilots, device pools,
// translation patterns, route groups and lists, line groups, hunt lists; CUPI users, distribution lists,
// call handlers) a dry_run changes nothing (the lab records no write and the object reads back equal), a
// change someone else makes between the preview and its confirmation is refused with
// CHANGED_SINCE_PREVIEW and nothing sent, the change applied with its plan_id is undone by
// *_undo_change, and every object it touched reads back equal by content to its before-image.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ClientVault } from '../../../../kernel/sdk/index.ts';
import { AxlClient } from '../../../../plugins/_shared/axl/axl-client.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { AxlSchemaCache } from '../../../../plugins/_shared/axl/schema-cache.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import type { XsdModel } from '../../../../plugins/_shared/axl/xsd-model.ts';
import type { AxlBefore } from '../../../../plugins/_shared/changes/axl-adapter.ts';
import { createdPath } from '../../../../plugins/_shared/changes/cupi-change.ts';
import type { Plain } from '../../../../plugins/_shared/changes/values.ts';
import { CupiClients } from '../../../../plugins/cuc/cupi/cupi-clients.ts';
import { AXL_CHANGE_CASES, CUPI_CHANGE_CASES } from '../../../helpers/change-cases.ts';
import {
  axlInverseOf,
  cupiInverseOf,
  directCupi,
  labReadsOnly,
  templateQuery,
} from '../../../helpers/change-corpus.ts';
import { writeBusyAdminProfile } from '../../../helpers/audit-combinations.ts';
import { prepareNode, startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { storeLabCupi } from '../../cuc/cupi/lab-cupi-vault.ts';
import { FAST_RETRY, labCucmEndpoint } from '../axl/helpers.ts';

interface DryRun {
  dry_run: true;
  plan_id: string;
  preview: { before: unknown; diff: unknown[]; operation: string };
}

describe('write safety corpus through MCP', () => {
  let s: ProductStack;
  let state: { dir: string; cleanup: () => void } | undefined;
  let cucm: string;
  let cuc: string;
  // Someone else: the AXL and CUPI clients used directly, outside the server and its journal.
  let dir: string;
  let axl: AxlClient;
  let xsd: XsdModel;
  let vf: VaultFixture;
  let vault: ClientVault;
  let cupi: CupiClients;
  let direct: ReturnType<typeof directCupi>;
  const templates = { user: 'voicemailusertemplate', callhandler: '' };
  const covered: string[] = [];

  before(async () => {
    // Some 300 AXL calls in a few seconds: the shipped per-minute limits (rightly) refuse that many.
    state = tempStateDir('ucmcp-corpus-');
    writeBusyAdminProfile(state.dir);
    s = await startProductStack({ stateDir: state.dir });
    cucm = (await prepareNode(s, 'cucm')).name;
    cuc = (await prepareNode(s, 'cuc')).name;
    dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    const cache = new AxlSchemaCache(join(dir, 'schema'), 'cucm_download_axl_toolkit');
    const { node } = labCucmEndpoint(s.lab);
    await downloadAxlToolkit({ ...node, cache, nodeVersion: '15.0', retry: FAST_RETRY });
    xsd = await cache.xsdModel('15.0');
    axl = new AxlClient({ ...node, version: '15.0', schema: await cache.load('15.0'), retry: FAST_RETRY });
    vf = vaultFixture();
    vault = vf.vault.forClient('someone-else');
    await storeLabCupi(vault, s.lab, cuc);
    cupi = new CupiClients({ retry: { backoffMs: [5, 10] } });
    direct = directCupi(cupi, vault, cuc);
    templates.callhandler = await direct.handlerTemplate();
  });
  after(async () => {
    console.log(`write safety corpus: ${covered.length} change kinds covered through MCP`);
    axl?.close();
    cupi?.close();
    await s?.stop();
    state?.cleanup();
    await vf?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const readsOnly = <T>(service: 'axl' | 'cupi', fn: () => Promise<T>): Promise<T> =>
    labReadsOnly(s.lab, service, fn);

  /**
   * The undo through `<product>_undo_change`: its preview and plan, then the undo with that plan; a
   * deleted CUPI user or call handler is re-created from `template`.
   */
  const undo = async (product: 'cucm' | 'cuc', changeId: string, template?: string): Promise<void> => {
    const given = { change_id: changeId, ...(template !== undefined ? { template } : {}) };
    const preview = await readsOnly(product === 'cucm' ? 'axl' : 'cupi', () =>
      s.ok('admin', `${product}_undo_change`, given),
    );
    assert.equal(typeof preview.plan_id, 'string', JSON.stringify(preview));
    const done = await s.ok('admin', `${product}_undo_change`, {
      ...given,
      plan_id: preview.plan_id,
    });
    assert.equal(typeof done.change_id, 'string', 'the undo is journalled as a change');
  };

  for (const [label, operation, args] of AXL_CHANGE_CASES) {
    it(`AXL ${label} (${operation})`, async () => {
      const call = { host: cucm, operation, args };
      const dry = (await readsOnly('axl', () =>
        s.ok('admin', 'cucm_axl_call', { ...call, dry_run: true }),
      )) as unknown as DryRun;
      assert.equal(dry.dry_run, true);
      assert.ok(dry.preview.diff.length > 0, 'the preview shows a change');
      const other = (await readsOnly('axl', () =>
        s.ok('admin', 'cucm_axl_call', { ...call, dry_run: true }),
      )) as unknown as DryRun;
      assert.deepEqual(other.preview.before, dry.preview.before, 'the preview changed nothing');

      // Someone else sends the same change between the preview and its confirmation.
      const theirs = (await axl.call(operation, args)) as { return?: Json };
      const refused = await readsOnly('axl', () =>
        s.fails('admin', 'cucm_axl_call', { ...call, plan_id: other.plan_id }),
      );
      assert.equal(refused.error, 'CHANGED_SINCE_PREVIEW', refused.message);
      const inverse = axlInverseOf(
        xsd,
        operation,
        args,
        dry.preview.before as AxlBefore,
        typeof theirs.return === 'string' ? theirs.return : undefined,
      );
      for (const r of inverse.requests) await axl.call(r.operation, r.args);

      // Put back by content, the first plan holds again.
      const applied = await s.ok('admin', 'cucm_axl_call', { ...call, plan_id: dry.plan_id });
      assert.equal(typeof applied.change_id, 'string', JSON.stringify(applied));
      await undo('cucm', applied.change_id as string);
      const back = (await readsOnly('axl', () =>
        s.ok('admin', 'cucm_axl_call', { ...call, dry_run: true }),
      )) as unknown as DryRun;
      assert.deepEqual(back.preview.before, dry.preview.before, 'every object is back as it was');
      covered.push(`AXL ${label}`);
    });
  }

  for (const c of CUPI_CHANGE_CASES) {
    it(`${c.label} (${c.method} /vmrest/${c.collection})`, async () => {
      if (c.seed) await direct.send('POST', `/vmrest/${c.collection}`, c.seed);
      let path = await direct.pathOf(c);
      const query = templateQuery(c, templates);
      const callOf = (at: string) => ({
        host: cuc,
        method: c.method,
        path: at,
        ...(query ? { query } : {}),
        ...(c.body ? { body: c.body } : {}),
      });
      const dry = (await readsOnly('cupi', () =>
        s.ok('admin', 'cuc_cupi_call', { ...callOf(path), dry_run: true }),
      )) as unknown as DryRun;
      assert.ok(dry.preview.diff.length > 0, 'the preview shows a change');
      const other = (await readsOnly('cupi', () =>
        s.ok('admin', 'cuc_cupi_call', { ...callOf(path), dry_run: true }),
      )) as unknown as DryRun;
      assert.deepEqual(other.preview.before, dry.preview.before, 'the preview changed nothing');

      let plan = dry.plan_id;
      // A create has no before-image another client could change: its object does not exist yet.
      if (c.method !== 'POST') {
        const theirs = await direct.send(c.method, path, c.body, query);
        const refused = await readsOnly('cupi', () =>
          s.fails('admin', 'cuc_cupi_call', { ...callOf(path), plan_id: other.plan_id }),
        );
        assert.equal(refused.error, 'CHANGED_SINCE_PREVIEW', refused.message);
        const inverse = cupiInverseOf(
          c.method,
          path,
          c.body,
          dry.preview.before as Plain | null,
          templates,
          theirs.location,
        );
        for (const r of inverse.requests) {
          const a = await direct.send(r.method, r.path, r.body, r.query);
          // A deleted object comes back under a new id: the change is previewed again there.
          if (r.method === 'POST') path = createdPath(a.location as string, c.collection);
        }
        if (c.method === 'DELETE') {
          const again = (await s.ok('admin', 'cuc_cupi_call', {
            ...callOf(path),
            dry_run: true,
          })) as unknown as DryRun;
          assert.deepEqual(again.preview.before, dry.preview.before);
          plan = again.plan_id;
        }
      }

      const applied = await s.ok('admin', 'cuc_cupi_call', { ...callOf(path), plan_id: plan });
      assert.equal(typeof applied.change_id, 'string', JSON.stringify(applied));
      const template =
        c.method !== 'DELETE'
          ? undefined
          : c.collection === 'users'
            ? templates.user
            : c.collection === 'handlers/callhandlers'
              ? templates.callhandler
              : undefined;
      await undo('cuc', applied.change_id as string, template);
      if (c.method === 'POST') {
        const made = createdPath(applied.location as string, c.collection);
        const gone = await s.fails('admin', 'cuc_cupi_call', { host: cuc, method: 'GET', path: made });
        assert.match(gone.message, /404|not found/i, 'the created object is gone');
      } else {
        // A re-created object has a new id: found again by the field that named it.
        const at = await direct.pathOf(c);
        const back = (await readsOnly('cupi', () =>
          s.ok('admin', 'cuc_cupi_call', { ...callOf(at), dry_run: true }),
        )) as unknown as DryRun;
        assert.deepEqual(back.preview.before, dry.preview.before, 'the object is back as it was');
      }
      covered.push(c.label);
    });
  }

  it('covers 40 or more change kinds', () => {
    assert.ok(covered.length >= 40, `${covered.length} kinds: ${covered.join(', ')}`);
  });
});
