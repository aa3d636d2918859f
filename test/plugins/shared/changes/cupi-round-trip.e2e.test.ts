// CUPI before-images, diffs and inverses against the lab's Unity Connection over real HTTPS and a real
// vault: users, distribution lists and call handlers updated, deleted and created, each undone by its
// computed inverse and read back equal by content to its before-image.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab } from '../../../../lab/index.ts';
import { NotFoundError, type ClientVault } from '../../../../kernel/sdk/index.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import type { CupiReader, CupiTarget } from '../../../../plugins/_shared/changes/cupi-change.ts';
import {
  buildCupiInverse,
  createdPath,
  cupiChangeDiff,
  readCupiBeforeImage,
  readCupiImage,
  resolveCupiTarget,
} from '../../../../plugins/_shared/changes/cupi-change.ts';
import { cupiChangeReader } from '../../../../plugins/cuc/cupi/change-reader.ts';
import { CupiClients } from '../../../../plugins/cuc/cupi/cupi-clients.ts';
import { startTestLab } from '../../../lab/helpers.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { storeLabCupi } from '../../cuc/cupi/lab-cupi-vault.ts';

const HOST = 'cuc-pub.lab.example';

describe('CUPI before-image, diff and inverse on the lab', () => {
  let lab: Lab;
  let vf: VaultFixture;
  let vault: ClientVault;
  let cupi: CupiClients;
  let reader: CupiReader;
  let handlerTemplate: string;

  before(async () => {
    lab = await startTestLab();
    vf = vaultFixture();
    vault = vf.vault.forClient('alice');
    await storeLabCupi(vault, lab, HOST);
    cupi = new CupiClients({ retry: { backoffMs: [5, 10] } });
    reader = cupiChangeReader(cupi, vault, HOST);
    const templates = await cupi.list(vault, HOST, {
      resource: 'callhandlertemplates',
      rowsPerPage: 10,
      pageNumber: 1,
    });
    handlerTemplate = (templates.items[0] as { ObjectId: string }).ObjectId;
  });
  after(async () => {
    cupi?.close();
    await lab?.stop();
    await vf?.cleanup();
  });

  const idOf = async (resource: string, field: string, value: string): Promise<string> => {
    const page = await cupi.list(vault, HOST, {
      resource,
      query: `(${field} is ${value})`,
      rowsPerPage: 5,
      pageNumber: 1,
    });
    const item = page.items.find((i) => (i as Record<string, string>)[field] === value) as {
      ObjectId: string;
    };
    return item.ObjectId;
  };

  const send = (
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: Record<string, Json>,
    query?: Record<string, string>,
  ) => cupi.request(vault, HOST, { method, path, ...(body ? { body } : {}), ...(query ? { query } : {}) });

  const targetOf = (method: string, path: string): CupiTarget => {
    const t = resolveCupiTarget(method, path);
    assert.ok('verb' in t, 'reason' in t ? t.reason : '');
    return t;
  };

  /** Applies a write, checks the diff and the node agree, runs the inverse; answers where the object is now. */
  const roundTrip = async (
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: Record<string, Json>,
    query?: Record<string, string>,
  ): Promise<void> => {
    const target = targetOf(method, path);
    const was = await readCupiBeforeImage(reader, target);
    const diff = cupiChangeDiff(target, was, body);
    assert.ok(diff.length > 0, 'the preview shows a change');
    const answer = await send(method, path, body, query);
    const inverse = buildCupiInverse(
      target,
      was,
      { ...(body ? { body } : {}), ...(answer.location ? { location: answer.location } : {}) },
      { userTemplateAlias: 'voicemailusertemplate', callHandlerTemplateObjectId: handlerTemplate },
    );
    assert.ok(inverse.requests.length > 0, JSON.stringify(inverse.losses));
    if (target.verb === 'update') {
      const now = await readCupiImage(reader, path);
      for (const c of diff)
        assert.deepEqual(
          now.state === 'present' ? ((now.image as Record<string, Json>)[c.path] ?? null) : undefined,
          c.after,
          c.path,
        );
    }
    let back = path;
    for (const r of inverse.requests) {
      const a = await send(r.method, r.path, r.body, r.query);
      if (r.method === 'POST') back = createdPath(a.location as string, target.collection);
    }
    if (target.verb === 'create') {
      const made = createdPath(answer.location as string, target.collection);
      assert.equal((await readCupiImage(reader, made)).state, 'absent');
      return;
    }
    const again = await readCupiImage(reader, back);
    assert.equal(again.state, 'present');
    if (again.state === 'present' && was.state === 'present') assert.deepEqual(again.image, was.image);
  };

  it('user: a PUT is put back', async () => {
    const id = await idOf('users', 'Alias', 'mlee');
    await roundTrip('PUT', `/vmrest/users/${id}`, { DisplayName: 'Mae Lee', Department: 'Support' });
  });

  it('user: a DELETE is undone by a POST from its template with its fields', async () => {
    const id = await idOf('users', 'Alias', 'abrown');
    await roundTrip('DELETE', `/vmrest/users/${id}`);
  });

  it('user: a POST is undone by a DELETE of what the Location names', async () => {
    await roundTrip(
      'POST',
      '/vmrest/users',
      { Alias: 'newbie', DisplayName: 'New Bie' },
      { templateAlias: 'voicemailusertemplate' },
    );
  });

  it('distribution list: POST, PUT and DELETE each undone', async () => {
    await roundTrip('POST', '/vmrest/distributionlists', { Alias: 'sales-dl', DisplayName: 'Sales' });
    const made = await send('POST', '/vmrest/distributionlists', { Alias: 'ops-dl', DisplayName: 'Ops' });
    const path = createdPath(made.location as string, 'distributionlists');
    await roundTrip('PUT', path, { DisplayName: 'Operations' });
    await roundTrip('DELETE', path);
  });

  it('call handler: POST, PUT and DELETE each undone, a re-create from the template', async () => {
    await roundTrip(
      'POST',
      '/vmrest/handlers/callhandlers',
      { DisplayName: 'Night' },
      { templateObjectId: handlerTemplate },
    );
    const id = await idOf('handlers/callhandlers', 'DisplayName', 'Goodbye');
    await roundTrip('PUT', `/vmrest/handlers/callhandlers/${id}`, {
      DisplayName: 'Farewell',
      DtmfAccessId: '9',
    });
    await roundTrip('DELETE', `/vmrest/handlers/callhandlers/${id}`);
  });

  it('an update or delete of a missing object is refused; a re-create without its template is not faked', async () => {
    await assert.rejects(
      readCupiBeforeImage(reader, targetOf('PUT', '/vmrest/users/00000000-0000-0000-0000-000000000000')),
      (e: unknown) => e instanceof NotFoundError && /does not exist/.test(e.message),
    );
    const id = await idOf('users', 'Alias', 'jsmith');
    const t = targetOf('DELETE', `/vmrest/users/${id}`);
    const inverse = buildCupiInverse(t, await readCupiBeforeImage(reader, t), {});
    assert.deepEqual(inverse.requests, []);
    assert.match(inverse.losses[0]?.reason ?? '', /template/);
  });
});
