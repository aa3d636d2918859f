// The AXL and CUPI change adapters against the lab over real HTTPS, for every case of the change corpus:
// a preview reads only (the lab's log shows no write and only reads), twice gives the same before-image,
// a change made by someone else since shows in the before-image a plan confirmation reads, readAfter
// reads the object as the write left it, and the inverse built from what the journal keeps (operation,
// request, before-image) brings every object back equal by content.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClientVault } from '../../../../kernel/sdk/index.ts';
import { AxlClient } from '../../../../plugins/_shared/axl/axl-client.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import type { XsdModel } from '../../../../plugins/_shared/axl/xsd-model.ts';
import type { AxlBefore, AxlChangeInput } from '../../../../plugins/_shared/changes/axl-adapter.ts';
import { axlChangeAdapter } from '../../../../plugins/_shared/changes/axl-adapter.ts';
import { readAxlImage } from '../../../../plugins/_shared/changes/axl-before-image.ts';
import type { CupiChangeInput } from '../../../../plugins/_shared/changes/cupi-adapter.ts';
import { cupiChangeAdapter } from '../../../../plugins/_shared/changes/cupi-adapter.ts';
import { createdPath, readCupiImage } from '../../../../plugins/_shared/changes/cupi-change.ts';
import type { ChangeAdapter, ChangePreview } from '../../../../plugins/_shared/changes/gate-types.ts';
import type { Plain } from '../../../../plugins/_shared/changes/values.ts';
import { cupiChangeReader } from '../../../../plugins/cuc/cupi/change-reader.ts';
import { CupiClients } from '../../../../plugins/cuc/cupi/cupi-clients.ts';
import { canonicalCupiPath } from '../../../../plugins/cuc/cupi/path-policy.ts';
import { AXL_CHANGE_CASES, CUPI_CHANGE_CASES, type CupiChangeCase } from '../../../helpers/change-cases.ts';
import {
  axlInverseOf,
  axlTarget,
  cupiInverseOf,
  directCupi,
  labReadsOnly,
  ownImage,
  templateQuery,
} from '../../../helpers/change-corpus.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { storeLabCupi } from '../../cuc/cupi/lab-cupi-vault.ts';
import type { AxlLab } from '../axl/helpers.ts';
import { FAST_RETRY, startAxlLab } from '../axl/helpers.ts';

const CUC = 'cuc-pub.lab.example';

describe('change adapters on the lab', () => {
  let t: AxlLab;
  let client: AxlClient;
  let xsd: XsdModel;
  let axl: ChangeAdapter<AxlChangeInput>;
  let vf: VaultFixture;
  let vault: ClientVault;
  let cupi: CupiClients;
  let cupiAdapter: ChangeAdapter<CupiChangeInput>;
  let direct: ReturnType<typeof directCupi>;
  const templates = { user: 'voicemailusertemplate', callhandler: '' };

  before(async () => {
    t = await startAxlLab();
    await downloadAxlToolkit({ ...t.node, cache: t.cache, nodeVersion: '15.0', retry: FAST_RETRY });
    xsd = await t.cache.xsdModel('15.0');
    client = new AxlClient({
      ...t.node,
      version: '15.0',
      schema: await t.cache.load('15.0'),
      retry: FAST_RETRY,
    });
    axl = axlChangeAdapter(client, xsd);
    vf = vaultFixture();
    vault = vf.vault.forClient('alice');
    await storeLabCupi(vault, t.lab, CUC);
    cupi = new CupiClients({ retry: { backoffMs: [5, 10] } });
    cupiAdapter = cupiChangeAdapter({
      reader: cupiChangeReader(cupi, vault, CUC),
      canonical: canonicalCupiPath,
    });
    direct = directCupi(cupi, vault, CUC);
    templates.callhandler = await direct.handlerTemplate();
  });
  after(async () => {
    client?.close();
    cupi?.close();
    await t?.stop();
    await vf?.cleanup();
  });

  const readsOnly = <T>(service: 'axl' | 'cupi', fn: () => Promise<T>): Promise<T> =>
    labReadsOnly(t.lab, service, fn);

  const axlUndo = async (p: ChangePreview, operation: string, args: Record<string, Json>, answer: Json) => {
    const ret = (answer as { return?: Json } | null)?.return;
    const inverse = axlInverseOf(
      xsd,
      operation,
      args,
      p.before as AxlBefore,
      typeof ret === 'string' ? ret : undefined,
    );
    assert.ok(inverse.requests.length > 0, JSON.stringify(inverse.losses));
    for (const r of inverse.requests) await client.call(r.operation, r.args);
  };

  /** The object (and each dependant) read back equal by content to the preview's before-image. */
  const axlRestored = async (p: ChangePreview, operation: string, args: Record<string, Json>) => {
    const before = p.before as AxlBefore;
    const back = await readAxlImage(client, axlTarget(xsd, operation, args), 'before');
    assert.deepEqual(back.state === 'present' ? back.image : null, ownImage(before));
    if (before !== null && typeof before === 'object' && 'dependants' in before)
      for (const d of before.dependants as {
        operation: string;
        args: Record<string, Json>;
        image: Plain;
      }[]) {
        const again = await readAxlImage(client, axlTarget(xsd, d.operation, d.args));
        assert.deepEqual(
          again.state === 'present' ? again.image : null,
          d.image,
          `${d.operation} ${JSON.stringify(d.args)}`,
        );
      }
  };

  for (const [label, operation, args] of AXL_CHANGE_CASES) {
    it(`AXL ${label}: preview reads only, someone else's change shows, apply, read back, undo`, async () => {
      const input = { host: 'cucm', operation, args };
      const p = await readsOnly('axl', () => axl.preview(input));
      assert.equal(p.kind, 'axl');
      assert.equal(p.operation, operation);
      assert.deepEqual(p.request, args);
      assert.ok(p.diff.length > 0, 'the preview shows a change');
      assert.equal(p.unreadable, undefined);
      const { kind } = axlTarget(xsd, operation, args);
      assert.equal(p.object.type, kind.tag);
      assert.ok(p.object.name ?? p.object.uuid, 'the object is named');
      if (kind.verb === 'remove')
        assert.ok(
          p.losses?.some((l) => l.path === 'uuid'),
          'a re-added object has a new uuid: the preview says so',
        );
      if (operation.startsWith('remove') && /on a|in a|associated/.test(label))
        assert.ok(
          p.before !== null && typeof p.before === 'object' && 'dependants' in p.before,
          'the before-image holds the objects the remove takes something from',
        );
      const again = await readsOnly('axl', () => axl.preview(input));
      assert.deepEqual(again.before, p.before, 'a preview changes nothing');

      // Someone else sends the same change between the preview and its confirmation.
      const theirs = (await client.call(operation, args)) as Json;
      const confirm = await readsOnly('axl', () => axl.preview({ ...input, plan_id: 'plan' }));
      assert.notDeepEqual(confirm.before, p.before, 'the confirmation sees the object changed');
      await axlUndo(p, operation, args, theirs);
      await axlRestored(p, operation, args);

      const answer = (await client.call(operation, args)) as Json;
      const now = await axl.readAfter(input, p, answer);
      if (kind.verb === 'remove') assert.equal(now, null);
      else assert.notEqual(now, null);
      await axlUndo(p, operation, args, answer);
      await axlRestored(p, operation, args);
    });
  }

  it('AXL: an operation without a before-image previews as unreadable, sending nothing', async () => {
    for (const [operation, args] of [
      ['resetPhone', { name: 'SEP0A1B2C3D4E01' }],
      ['executeSQLUpdate', { sql: "update device set description = 'x' where name = 'SEP0A1B2C3D4E01'" }],
    ] as const) {
      const mark = t.lab.state.log.requests.length;
      const p = await axl.preview({ host: 'cucm', operation, args });
      assert.equal(t.lab.state.log.requests.length, mark, `${operation}: nothing sent`);
      assert.match(p.unreadable ?? '', /\w/, operation);
      assert.equal(p.before, null);
      assert.deepEqual(p.diff, []);
      assert.equal(p.change_class, 'destructive');
    }
  });

  /** Sends the inverse; answers the path the object is at afterwards (a re-created one has a new id). */
  const cupiUndo = async (
    c: CupiChangeCase,
    path: string,
    p: ChangePreview,
    location?: string,
  ): Promise<string> => {
    const inverse = cupiInverseOf(c.method, path, c.body, p.before as Plain | null, templates, location);
    assert.ok(inverse.requests.length > 0, JSON.stringify(inverse.losses));
    let at = path;
    for (const r of inverse.requests) {
      const a = await direct.send(r.method, r.path, r.body, r.query);
      if (r.method === 'POST') at = createdPath(a.location as string, c.collection);
    }
    return at;
  };

  const cupiRestored = async (c: CupiChangeCase, at: string, p: ChangePreview, location?: string) => {
    if (c.method === 'POST') {
      const made = createdPath(location as string, c.collection);
      assert.equal((await readCupiImage(cupiChangeReader(cupi, vault, CUC), made)).state, 'absent');
      return;
    }
    const back = await readCupiImage(cupiChangeReader(cupi, vault, CUC), at);
    assert.deepEqual(back.state === 'present' ? back.image : null, p.before);
  };

  for (const c of CUPI_CHANGE_CASES) {
    it(`${c.label}: preview reads only, someone else's change shows, apply, read back, undo`, async () => {
      if (c.seed) await direct.send('POST', `/vmrest/${c.collection}`, c.seed);
      let path = await direct.pathOf(c);
      const query = templateQuery(c, templates);
      const input: CupiChangeInput = {
        host: CUC,
        method: c.method,
        path,
        ...(query ? { query } : {}),
        ...(c.body ? { body: c.body } : {}),
      };
      const p = await readsOnly('cupi', () => cupiAdapter.preview(input));
      assert.equal(p.operation, `${c.method} ${path}`);
      assert.ok(p.diff.length > 0, 'the preview shows a change');
      assert.deepEqual((await readsOnly('cupi', () => cupiAdapter.preview(input))).before, p.before);

      // A create has no before-image to change: someone else's create of the same alias fails on the node.
      if (c.method !== 'POST') {
        const theirs = await direct.send(c.method, path, c.body, query);
        const confirm = await readsOnly('cupi', () => cupiAdapter.preview({ ...input, plan_id: 'plan' }));
        assert.notDeepEqual(confirm.before, p.before, 'the confirmation sees the object changed');
        path = await cupiUndo(c, path, p, theirs.location);
        await cupiRestored(c, path, p);
      }

      const again = { ...input, path };
      const p2 = await cupiAdapter.preview(again);
      const answer = await direct.send(c.method, path, c.body, query);
      const now = await cupiAdapter.readAfter(again, p2, answer);
      if (c.method === 'DELETE') assert.equal(now, null);
      else assert.notEqual(now, null);
      if (c.method === 'POST')
        assert.equal(
          p2.object.path,
          createdPath(answer.location as string, c.collection),
          'the created object',
        );
      const at = await cupiUndo(c, path, p2, answer.location);
      await cupiRestored(c, at, p2, answer.location);
    });
  }
});
