// *_undo_change through real MCP clients against the lab: changes made with cucm_axl_call and
// cuc_cupi_call (previewed, then confirmed by plan, journalled by the gate), undone by the undo tool
// (its preview sends no write; its plan sends the inverse), the objects read back equal by content to
// their before-images, both changes in the journal with undo_of; a change someone else edited since is
// refused with the diff and nothing sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { contentOf } from '../../../../plugins/_shared/changes/cupi-change.ts';
import { normalise } from '../../../../plugins/_shared/changes/values.ts';
import {
  prepareNode,
  startProductStack,
  type ProductStack,
  type Role,
} from '../../../helpers/product-stack.ts';

type Reply = Record<string, unknown>;

describe('undo_change through MCP', () => {
  let s: ProductStack;
  let cucm: string;
  let cuc: string;

  before(async () => {
    s = await startProductStack();
    cucm = (await prepareNode(s, 'cucm')).name;
    cuc = (await prepareNode(s, 'cuc')).name;
  });
  after(() => s?.stop());

  /** A write through its tool: previewed, then confirmed with the preview's plan. Its journal id. */
  const change = async (tool: string, args: Reply, role: Role = 'admin'): Promise<string> => {
    const dry = await s.ok(role, tool, { ...args, dry_run: true });
    assert.equal(typeof dry.plan_id, 'string', JSON.stringify(dry));
    const done = await s.ok(role, tool, { ...args, plan_id: dry.plan_id });
    assert.equal(typeof done.change_id, 'string', JSON.stringify(done));
    return done.change_id as string;
  };

  /** No write reached the lab while `fn` ran. */
  const noWrite = async <T>(fn: () => Promise<T>): Promise<T> => {
    const writes = s.lab.state.log.writes.length;
    const out = await fn();
    assert.deepEqual(s.lab.state.log.writes.slice(writes), [], 'no write reached the lab');
    return out;
  };

  /** The undo: its preview (checked to send no write), then the undo with its plan. */
  const undo = async (product: 'cucm' | 'cuc', changeId: string, extra: Reply = {}) => {
    const preview = await noWrite(() =>
      s.ok('admin', `${product}_undo_change`, { change_id: changeId, ...extra }),
    );
    assert.equal(preview.dry_run, true);
    assert.equal(typeof preview.plan_id, 'string');
    const done = await s.ok('admin', `${product}_undo_change`, {
      change_id: changeId,
      plan_id: preview.plan_id,
      ...extra,
    });
    assert.equal(done.dry_run, false);
    return { preview, done };
  };

  const axlGet = async (operation: string, args: Reply): Promise<Json | undefined> => {
    const r = await s.ok('admin', 'cucm_axl_call', { host: cucm, operation, args });
    const ret = (r.result as { return?: Record<string, Json> }).return ?? {};
    return Object.values(ret)[0];
  };
  const content = (raw: Json | undefined) => normalise(raw, new Set(['uuid']));

  const history = async (object: string) =>
    (await s.ok('admin', 'cucm_change_history', { object })).changes as Reply[];

  it('an added route partition: the undo previews its remove, removes it, both journalled', async () => {
    const id = await change('cucm_axl_call', {
      host: cucm,
      operation: 'addRoutePartition',
      args: { routePartition: { name: 'PT_Undo', description: 'undo test' } },
    });
    assert.ok(await axlGet('getRoutePartition', { name: 'PT_Undo' }));
    const { preview, done } = await undo('cucm', id);
    assert.deepEqual(
      (preview.requests as { operation: string }[]).map((r) => r.operation),
      ['removeRoutePartition'],
    );
    assert.equal(done.after, null);
    const gone = await s.fails('admin', 'cucm_axl_call', {
      host: cucm,
      operation: 'getRoutePartition',
      args: { name: 'PT_Undo' },
    });
    assert.equal(gone.error, 'AXLError');
    const journal = await history('PT_Undo');
    const undone = journal.find((c) => c.id === done.change_id);
    assert.equal(undone?.undo_of, id);
    assert.equal(undone?.outcome, 'applied');
    assert.ok(journal.some((c) => c.id === id && c.undo_of === null));
    // Undone once only.
    const again = await s.fails('admin', 'cucm_undo_change', { change_id: id });
    assert.equal(again.error, 'ALREADY_UNDONE');
  });

  it('an updated phone: the undo restores it equal by content', async () => {
    const name = 'SEP0A1B2C3D4E02';
    const was = content(await axlGet('getPhone', { name }));
    const id = await change('cucm_axl_call', {
      host: cucm,
      operation: 'updatePhone',
      args: { name, description: 'changed for the undo', callingSearchSpaceName: 'CSS_Internal' },
    });
    assert.notDeepEqual(content(await axlGet('getPhone', { name })), was);
    const { done } = await undo('cucm', id);
    assert.deepEqual(content(await axlGet('getPhone', { name })), was);
    assert.deepEqual(done.after, was);
  });

  it('a removed user: the undo re-adds it and says its password and PIN are lost', async () => {
    const was = content(await axlGet('getUser', { userid: 'rjones' }));
    const id = await change('cucm_axl_call', {
      host: cucm,
      operation: 'removeUser',
      args: { userid: 'rjones' },
    });
    const { preview } = await undo('cucm', id);
    const lost = (preview.losses as { path: string }[]).map((l) => l.path);
    assert.ok(lost.includes('password') && lost.includes('pin'), lost.join());
    assert.deepEqual(content(await axlGet('getUser', { userid: 'rjones' })), was);
  });

  it('a change someone else edited since: refused with the diff, nothing sent', async () => {
    const name = 'SEP0A1B2C3D4E03';
    const id = await change('cucm_axl_call', {
      host: cucm,
      operation: 'updatePhone',
      args: { name, description: 'mine' },
    });
    await change(
      'cucm_axl_call',
      {
        host: cucm,
        operation: 'updatePhone',
        args: { name, description: 'theirs' },
      },
      'operator',
    );
    const refused = await noWrite(() => s.fails('admin', 'cucm_undo_change', { change_id: id }));
    assert.equal(refused.error, 'CHANGED_SINCE_CHANGE');
    assert.match(refused.message, /description/);
    assert.equal(
      (content(await axlGet('getPhone', { name })) as Record<string, unknown>).description,
      'theirs',
    );
  });

  it('another client cannot undo it: NOT_FOUND, as an unknown id', async () => {
    const id = await change('cucm_axl_call', {
      host: cucm,
      operation: 'updatePhone',
      args: { name: 'SEP0A1B2C3D4E04', description: 'for the admin only' },
    });
    const foreign = await s.fails('operator', 'cucm_undo_change', { change_id: id });
    assert.equal(foreign.error, 'NOT_FOUND');
  });

  it('a service stop is undone by a start; a restart has no inverse', async () => {
    const services = ['Cisco Tftp'];
    const id = await change('cucm_service_control', { host: cucm, action: 'stop', services });
    const { preview, done } = await undo('cucm', id);
    assert.deepEqual(preview.requests, [{ operation: 'soapDoControlServices', action: 'Start', services }]);
    assert.match(String((done.after as Record<string, unknown>)['Cisco Tftp']), /^Started/i);
    const restart = await change('cucm_service_control', { host: cucm, action: 'restart', services });
    const refused = await noWrite(() => s.fails('admin', 'cucm_undo_change', { change_id: restart }));
    assert.equal(refused.error, 'NO_INVERSE');
    assert.match(refused.message, /restart has no inverse/);
  });

  it('CUPI: a created distribution list is undone by its DELETE', async () => {
    const id = await change('cuc_cupi_call', {
      host: cuc,
      method: 'POST',
      path: '/vmrest/distributionlists',
      body: { Alias: 'gone-dl', DisplayName: 'Gone' },
    });
    const { preview } = await undo('cuc', id);
    const [del] = preview.requests as { method: string; path: string }[];
    assert.equal(del?.method, 'DELETE');
    const gone = await s.fails('admin', 'cuc_cupi_call', { host: cuc, method: 'GET', path: del?.path });
    assert.equal(gone.error, 'CUPIError');
  });

  it('CUPI: a distribution list PUT is undone', async () => {
    const created = await s.ok('admin', 'cuc_cupi_call', {
      host: cuc,
      method: 'POST',
      path: '/vmrest/distributionlists',
      body: { Alias: 'undo-dl', DisplayName: 'Undo' },
      dry_run: true,
    });
    const made = await s.ok('admin', 'cuc_cupi_call', {
      host: cuc,
      method: 'POST',
      path: '/vmrest/distributionlists',
      body: { Alias: 'undo-dl', DisplayName: 'Undo' },
      plan_id: created.plan_id,
    });
    const path = made.location_path as string;
    const read = async () =>
      contentOf(
        (await s.ok('admin', 'cuc_cupi_call', { host: cuc, method: 'GET', path })).body as Record<
          string,
          Json
        >,
      );
    const was = await read();
    const id = await change('cuc_cupi_call', {
      host: cuc,
      method: 'PUT',
      path,
      body: { DisplayName: 'Undone soon' },
    });
    assert.notDeepEqual(await read(), was);
    const { preview } = await undo('cuc', id);
    assert.deepEqual(
      (preview.requests as { method: string }[]).map((r) => r.method),
      ['PUT'],
    );
    assert.deepEqual(await read(), was);
  });
});
