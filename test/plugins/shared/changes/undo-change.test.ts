// The undo tool's refusals and its preview-then-plan flow, over a real change journal (files) and the
// real plan store, with a fake node behind the family's undo source: every refusal sends nothing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileChangeJournal } from '../../../../kernel/changes/change-journal.ts';
import { MemoryPlanStore } from '../../../../kernel/changes/plan-store.ts';
import { journalView, plansView } from '../../../../kernel/changes/views.ts';
import { KernelError } from '../../../../kernel/errors/index.ts';
import type { ChangeEntry, ChangeRecord, ToolContext } from '../../../../kernel/sdk/index.ts';
import type { CupiReader, CupiRequestPlan } from '../../../../plugins/_shared/changes/cupi-change.ts';
import { assertUnchangedSince } from '../../../../plugins/_shared/changes/undo-checks.ts';
import { cupiUndoSource } from '../../../../plugins/_shared/changes/undo-cupi.ts';
import type { UndoPlan, UndoSource } from '../../../../plugins/_shared/changes/undo-plan.ts';
import { serviceInverse } from '../../../../plugins/_shared/changes/undo-service.ts';
import type { Plain } from '../../../../plugins/_shared/changes/values.ts';
import { undoChangeTool } from '../../../../plugins/_shared/tools/undo-change.ts';
import { sampleChange } from '../../../helpers/change-entry.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';

const state = tempStateDir('ucmcp-undo-');
after(() => state.cleanup());
let n = 0;

/** A node holding one object by name, and what reached it. */
function fakeNode(object: Plain | null) {
  const node = { object, sent: [] as unknown[] };
  const source: UndoSource<unknown> = {
    plan() {
      return Promise.resolve().then(() => {
        const record = current.record as ChangeRecord;
        assertUnchangedSince(record, node.object);
        return {
          kind: 'axl',
          operation: 'undo updatePhone',
          object: { type: 'phone', name: 'SEP1' },
          current: node.object,
          restores: record.before as Plain,
          requests: [{ operation: 'updatePhone', args: { name: 'SEP1', description: 'old' } }],
          losses: [],
        } satisfies UndoPlan<unknown>;
      });
    },
    send(plan) {
      node.sent.push(...plan.requests);
      node.object = plan.restores;
      return Promise.resolve([{ return: 'ok' }]);
    },
    readBack: () => Promise.resolve(node.object),
  };
  const current: { record?: ChangeRecord } = {};
  return { node, source, current };
}

function setup(writes: 'direct' | 'confirm' = 'direct') {
  const journal = new FileChangeJournal({
    dir: join(state.dir, `j${++n}`),
    retentionMs: 86_400_000,
    maxBytesPerClient: 1024 * 1024,
    maxRecordBytes: 64 * 1024,
  });
  const plans = new MemoryPlanStore({ ttlMs: 60_000, perClient: 10 });
  const ctxFor = (client = 'alice') =>
    ({
      caller: { name: client, profile: 'operator', products: ['cucm'] },
      kernel: { permissions: () => ({ writes }) },
      input: {
        accepts: { elicitation: false, sampling: false, roots: false, elicitationUrl: false },
        responses: {},
      },
      changes: journalView(journal, {
        client,
        tool: 'cucm_undo_change',
        product: 'cucm',
        callId: `call-${++n}`,
      }),
      plans: plansView(plans, { client, tool: 'cucm_undo_change' }),
      confirmed: () => undefined,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      node: { permit: () => undefined, request: () => undefined },
      signal: new AbortController().signal,
      shared: {},
    }) as unknown as ToolContext<unknown>;
  const record = (e: Partial<ChangeEntry> = {}, client = 'alice') =>
    journal.append(
      sampleChange({
        before: { name: 'SEP1', description: 'old' },
        request: { name: 'SEP1', description: 'new' },
        after: { name: 'SEP1', description: 'new' },
        ...e,
      }),
      { client, callId: 'c0', tool: 'cucm_axl_call', product: 'cucm' },
    );
  return { journal, ctxFor, record };
}

function toolWith(source: UndoSource<unknown>) {
  return undoChangeTool('cucm', {
    service: 'axl',
    openers: {
      axl: (_ctx, _record, fn) => fn(source),
      service_control: (_ctx, record, fn) => {
        serviceInverse(record);
        return fn(source);
      },
    },
    what: 'test.',
  });
}

async function run(
  tool: ReturnType<typeof toolWith>,
  ctx: ToolContext<unknown>,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const reply = await tool.handler(input as never, ctx as never);
  return (reply as { structured: Record<string, unknown> }).structured;
}

async function refusal(p: Promise<unknown>): Promise<KernelError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof KernelError) return err;
    throw err;
  }
  return assert.fail('accepted');
}

describe('undo_change', () => {
  it('previews without sending, then undoes with the plan, journalled with undo_of', async () => {
    const { ctxFor, record, journal } = setup();
    const f = fakeNode({ name: 'SEP1', description: 'new' });
    const rec = await record();
    f.current.record = rec;
    const tool = toolWith(f.source);
    const preview = await run(tool, ctxFor(), { change_id: rec.id });
    assert.equal(preview.dry_run, true);
    assert.equal(f.node.sent.length, 0, 'a preview sends nothing');
    assert.deepEqual(preview.diff, [{ path: 'description', before: 'new', after: 'old' }]);
    assert.equal(typeof preview.plan_id, 'string');
    // The default without plan_id is the preview, even for a direct `writes` profile.
    const done = await run(tool, ctxFor(), { change_id: rec.id, plan_id: preview.plan_id });
    assert.equal(done.dry_run, false);
    assert.equal(f.node.sent.length, 1);
    assert.deepEqual(done.after, { name: 'SEP1', description: 'old' });
    const undo = await journal.get('alice', done.change_id as string);
    assert.equal(undo.undo_of, rec.id);
    assert.equal(undo.outcome, 'applied');
    // Undone once: a second undo is refused before anything is read.
    const again = await refusal(run(tool, ctxFor(), { change_id: rec.id }));
    assert.equal(again.code, 'ALREADY_UNDONE');
    assert.match(again.message, new RegExp(undo.id));
    // The undo itself is no change a tool makes: not undone in turn.
    const ofUndo = await refusal(run(tool, ctxFor(), { change_id: undo.id }));
    assert.equal(ofUndo.code, 'NO_INVERSE');
    assert.match(ofUndo.message, /itself the undo/);
  });

  it('an object changed since the change: CHANGED_SINCE_CHANGE with the diff, nothing sent', async () => {
    const { ctxFor, record } = setup();
    const f = fakeNode({ name: 'SEP1', description: 'edited by someone else' });
    f.current.record = await record();
    const err = await refusal(run(toolWith(f.source), ctxFor(), { change_id: f.current.record.id }));
    assert.equal(err.code, 'CHANGED_SINCE_CHANGE');
    assert.match(err.message, /description/);
    assert.deepEqual(err.details?.diff, [
      { path: 'description', before: 'new', after: 'edited by someone else' },
    ]);
    assert.equal(f.node.sent.length, 0);
  });

  it('changed between the preview and the plan: refused, nothing sent', async () => {
    const { ctxFor, record } = setup();
    const f = fakeNode({ name: 'SEP1', description: 'new' });
    f.current.record = await record();
    const tool = toolWith(f.source);
    const preview = await run(tool, ctxFor(), { change_id: f.current.record.id });
    f.node.object = { name: 'SEP1', description: 'meanwhile' };
    const err = await refusal(
      run(tool, ctxFor(), { change_id: f.current.record.id, plan_id: preview.plan_id }),
    );
    assert.equal(err.code, 'CHANGED_SINCE_CHANGE');
    assert.equal(f.node.sent.length, 0);
  });

  it("another client's change and an unknown id are both NOT_FOUND, alike", async () => {
    const { ctxFor, record } = setup();
    const f = fakeNode({ name: 'SEP1', description: 'new' });
    const theirs = await record({}, 'mallory');
    const tool = toolWith(f.source);
    const foreign = await refusal(run(tool, ctxFor(), { change_id: theirs.id }));
    const unknown = await refusal(run(tool, ctxFor(), { change_id: 'chg_000000000_0000_00000000' }));
    assert.equal(foreign.code, 'NOT_FOUND');
    assert.equal(unknown.code, 'NOT_FOUND');
    assert.equal(f.node.sent.length, 0);
  });

  it('another product’s change is NOT_FOUND here', async () => {
    const { ctxFor, journal } = setup();
    const rec = await journal.append(sampleChange(), {
      client: 'alice',
      callId: 'c1',
      tool: 'cuc_cupi_call',
      product: 'cuc',
    });
    const err = await refusal(run(toolWith(fakeNode(null).source), ctxFor(), { change_id: rec.id }));
    assert.equal(err.code, 'NOT_FOUND');
  });

  for (const [label, entry, pattern] of [
    ['a failed change', { outcome: 'failed' as const, error: 'AXLError: refused' }, /failed/],
    ['an uncertain change', { outcome: 'uncertain' as const }, /uncertain/],
    ['a CLI command', { kind: 'cli' as const, operation: 'set network dns primary 10.0.0.1' }, /CLI/],
    [
      'a service restart',
      {
        kind: 'service_control' as const,
        operation: 'Cisco Tftp: Restart',
        request: { operation: 'soapDoControlServices', action: 'Restart', services: ['Cisco Tftp'] },
      },
      /restart has no inverse/,
    ],
  ] as const) {
    it(`${label}: NO_INVERSE saying why, nothing sent`, async () => {
      const { ctxFor, record } = setup();
      const f = fakeNode({ name: 'SEP1', description: 'new' });
      f.current.record = await record(entry);
      const err = await refusal(run(toolWith(f.source), ctxFor(), { change_id: f.current.record.id }));
      assert.equal(err.code, 'NO_INVERSE');
      assert.match(err.message, pattern);
      assert.equal(f.node.sent.length, 0);
    });
  }

  it('a service start is undone by a stop, a stop by a start', () => {
    const rec = (action: string) =>
      ({
        id: 'x',
        operation: `Cisco Tftp: ${action}`,
        request: { action, services: ['Cisco Tftp'] },
      }) as unknown as ChangeRecord;
    assert.equal(serviceInverse(rec('Start')).action, 'Stop');
    assert.equal(serviceInverse(rec('Stop')).action, 'Start');
  });

  it('images the journal kept only as a digest: NO_INVERSE', async () => {
    const { ctxFor } = setup();
    const small = new FileChangeJournal({
      dir: join(state.dir, `small${++n}`),
      retentionMs: 86_400_000,
      maxBytesPerClient: 1024 * 1024,
      maxRecordBytes: 2048,
    });
    const big = 'x'.repeat(4000);
    const rec = await small.append(sampleChange({ before: { name: 'SEP1', description: big } }), {
      client: 'alice',
      callId: 'c1',
      tool: 'cucm_axl_call',
      product: 'cucm',
    });
    assert.ok(rec.omitted.length > 0);
    const ctx = ctxFor();
    (ctx as { changes: unknown }).changes = journalView(small, {
      client: 'alice',
      tool: 'cucm_undo_change',
      product: 'cucm',
      callId: 'c2',
    });
    const err = await refusal(run(toolWith(fakeNode(null).source), ctx, { change_id: rec.id }));
    assert.equal(err.code, 'NO_INVERSE');
    assert.match(err.message, /digest/);
  });
});

describe('CUPI undo source', () => {
  const record = (over: Partial<ChangeRecord>): ChangeRecord =>
    ({
      id: 'chg_1',
      kind: 'cupi',
      operation: 'PUT /vmrest/distributionlists/dl-1',
      object: { type: 'distributionlists', path: '/vmrest/distributionlists/dl-1' },
      before: { DisplayName: 'Sales', Alias: 'sales' },
      request: { body: { DisplayName: 'Sales EMEA' } },
      after: { DisplayName: 'Sales EMEA', Alias: 'sales' },
      ...over,
    }) as ChangeRecord;
  const reader = (obj: Record<string, unknown> | undefined): CupiReader => ({
    get: () => Promise.resolve(obj as never),
  });

  it('a PUT is undone by a PUT of the before-image values of what it set', async () => {
    const sent: CupiRequestPlan[] = [];
    const src = cupiUndoSource(
      reader({ ObjectId: 'dl-1', DisplayName: 'Sales EMEA', Alias: 'sales', URI: '/x' }),
      (r) => Promise.resolve(sent.push(r)),
      record({}),
      { permit: () => undefined },
    );
    const plan = await src.plan();
    assert.deepEqual(plan.requests, [
      { method: 'PUT', path: '/vmrest/distributionlists/dl-1', body: { DisplayName: 'Sales' } },
    ]);
    assert.equal(sent.length, 0);
  });

  it('changed since: refused with the diff, nothing sent; the allowlist is asked per request', async () => {
    const sent: CupiRequestPlan[] = [];
    const src = cupiUndoSource(
      reader({ ObjectId: 'dl-1', DisplayName: 'Other', Alias: 'sales' }),
      (r) => Promise.resolve(sent.push(r)),
      record({}),
      { permit: () => undefined },
    );
    await assert.rejects(src.plan(), { code: 'CHANGED_SINCE_CHANGE' });
    assert.equal(sent.length, 0);
    const permitted: string[] = [];
    const denied = cupiUndoSource(
      reader({ ObjectId: 'dl-1', DisplayName: 'Sales EMEA', Alias: 'sales' }),
      (r) => Promise.resolve(sent.push(r)),
      record({}),
      {
        permit: (_s, subject) => {
          permitted.push(subject);
          throw new Error('denied');
        },
      },
    );
    await assert.rejects(denied.plan(), /denied/);
    assert.deepEqual(permitted, ['PUT /vmrest/distributionlists/dl-1']);
  });

  it('a POST whose created path the journal lacks: NO_INVERSE', () => {
    assert.throws(
      () =>
        cupiUndoSource(
          reader(undefined),
          () => Promise.resolve(undefined),
          record({
            operation: 'POST /vmrest/distributionlists',
            object: { type: 'distributionlists', path: '/vmrest/distributionlists' },
          }),
          { permit: () => undefined },
        ),
      { code: 'NO_INVERSE' },
    );
  });
});

describe('values the journal kept redacted', () => {
  const rec = (after: unknown) => ({ id: 'chg_1', after }) as unknown as ChangeRecord;

  it('are never compared: a redacted field matches whatever the node holds, the others still count', () => {
    const after = { pattern: '9.011!', authorizationCodeRequired: '[REDACTED]', description: 'x' };
    assertUnchangedSince(rec(after), {
      pattern: '9.011!',
      authorizationCodeRequired: 'false',
      description: 'x',
    });
    assert.throws(
      () =>
        assertUnchangedSince(rec(after), {
          pattern: '9.011!',
          authorizationCodeRequired: 'false',
          description: 'edited',
        }),
      { code: 'CHANGED_SINCE_CHANGE' },
    );
  });

  it('are never sent back: a PUT leaves such a field alone and lists it as lost', async () => {
    const src = cupiUndoSource(
      { get: () => Promise.resolve({ ObjectId: 'dl-1', DisplayName: 'New', AuthToken: 'now' } as never) },
      () => Promise.resolve(undefined),
      {
        id: 'chg_2',
        kind: 'cupi',
        operation: 'PUT /vmrest/distributionlists/dl-1',
        object: { type: 'distributionlists', path: '/vmrest/distributionlists/dl-1' },
        before: { DisplayName: 'Old', AuthToken: '[REDACTED]' },
        request: { body: { DisplayName: 'New', AuthToken: '[REDACTED]' } },
        after: { DisplayName: 'New', AuthToken: '[REDACTED]' },
      } as unknown as ChangeRecord,
      { permit: () => undefined },
    );
    const plan = await src.plan();
    assert.deepEqual(plan.requests, [
      { method: 'PUT', path: '/vmrest/distributionlists/dl-1', body: { DisplayName: 'Old' } },
    ]);
    assert.ok(plan.losses.some((l) => l.path === 'AuthToken' && /redacted/.test(l.reason)));
  });
});
