import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryPlanStore } from '../../../../kernel/changes/plan-store.ts';
import { plansView } from '../../../../kernel/changes/views.ts';
import { KernelError } from '../../../../kernel/errors/index.ts';
import type { ChangeClass, ChangeEntry, ChangeRecord, WritesSetting } from '../../../../kernel/sdk/index.ts';
import { gateChange, type GateContext } from '../../../../plugins/_shared/changes/gate.ts';
import type { ChangeAdapter, ChangePreview } from '../../../../plugins/_shared/changes/gate-types.ts';

interface In {
  host: string;
  name: string;
  description: string;
  dry_run?: boolean;
  plan_id?: string;
}

/** A node holding one object; `sent` counts what reached it through `apply`. */
function node(cls: ChangeClass) {
  const state = { object: { name: 'SEP1', description: 'old' }, sent: 0 };
  const adapter: ChangeAdapter<In> = {
    kind: 'axl',
    classify: () => cls,
    preview: (i) =>
      Promise.resolve({
        change_class: cls === 'read' ? 'change' : cls,
        kind: 'axl',
        operation: 'updatePhone',
        object: { type: 'phone', name: i.name },
        before: { ...state.object },
        request: { name: i.name, description: i.description },
        diff: [{ path: 'description', before: state.object.description, after: i.description }],
      } satisfies ChangePreview),
    readAfter: () => Promise.resolve({ ...state.object }),
  };
  const apply = (i: In) => () => {
    state.sent++;
    state.object.description = i.description;
    return Promise.resolve({ ok: true });
  };
  return { state, adapter, apply };
}

function context(
  writes: WritesSetting,
  o: { elicitation?: boolean; state?: string; responses?: Record<string, unknown> } = {},
  shared = { plans: new MemoryPlanStore({ ttlMs: 60_000, perClient: 10 }), records: [] as ChangeEntry[] },
) {
  const confirmations: unknown[] = [];
  const ctx = {
    caller: { name: 'alice', profile: 'operator', products: ['cucm'] },
    kernel: { permissions: () => ({ writes }) },
    input: {
      accepts: { elicitation: o.elicitation ?? false, sampling: false, roots: false, elicitationUrl: false },
      responses: o.responses ?? {},
      ...(o.state !== undefined ? { state: o.state } : {}),
    },
    plans: plansView(shared.plans, { client: 'alice', tool: 'cucm_axl_call' }),
    changes: {
      record: (e: ChangeEntry) => {
        shared.records.push(e);
        return Promise.resolve({ id: `c${shared.records.length}` } as ChangeRecord);
      },
    },
    confirmed: (c: unknown) => confirmations.push(c),
    log: { warn: () => undefined, error: () => undefined },
  } as unknown as GateContext;
  return { ctx, confirmations, shared };
}

const call: In = { host: 'pub', name: 'SEP1', description: 'new' };
const opts = { host: 'pub' };

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    return err instanceof KernelError ? err.code : String(err);
  }
}

describe('the change gate', () => {
  it('lets a read through untouched: nothing previewed, nothing journalled', async () => {
    const n = node('read');
    const c = context('preview-only');
    const out = await gateChange(c.ctx, n.adapter, call, n.apply(call), opts);
    assert.equal(out.kind, 'applied');
    assert.equal(n.state.sent, 1);
    assert.equal(c.shared.records.length, 0);
  });

  it('dry_run previews, issues a plan and sends nothing', async () => {
    const n = node('destructive');
    const c = context('direct');
    const out = await gateChange(c.ctx, n.adapter, { ...call, dry_run: true }, n.apply(call), opts);
    assert.equal(out.kind, 'dry_run');
    if (out.kind !== 'dry_run') return;
    assert.equal(out.answer.needs_confirmation, true);
    assert.deepEqual(out.answer.preview.diff, [{ path: 'description', before: 'old', after: 'new' }]);
    assert.match(out.answer.plan_id, /./);
    assert.equal(n.state.sent, 0);
    assert.equal(c.shared.records.length, 0);
  });

  it('a dry run answer never carries a password or PIN of the request or the diff', async () => {
    const n = node('destructive');
    const secret = { ...n.adapter };
    secret.preview = async (i) => ({
      ...(await n.adapter.preview(i)),
      request: { userid: 'rj', password: 'S3cret!pw', nested: [{ pin: '8041' }] },
      diff: [{ path: 'password', before: null, after: 'S3cret!pw' }],
    });
    const c = context('direct');
    const out = await gateChange(c.ctx, secret, { ...call, dry_run: true }, n.apply(call), opts);
    assert.ok(out.kind === 'dry_run');
    const text = JSON.stringify(out.answer);
    assert.ok(!text.includes('S3cret!pw') && !text.includes('8041'), text);
  });

  it('preview-only refuses any change (ProfilePermissionError) but still previews', async () => {
    const n = node('change');
    const c = context('preview-only');
    assert.equal(
      await code(gateChange(c.ctx, n.adapter, call, n.apply(call), opts)),
      'ProfilePermissionError',
    );
    const dry = await gateChange(c.ctx, n.adapter, { ...call, dry_run: true }, n.apply(call), opts);
    assert.equal(dry.kind, 'dry_run');
    assert.equal(n.state.sent, 0);
  });

  it('writes direct: a change goes ahead and is journalled with before, after and confirmed_by direct', async () => {
    const n = node('change');
    const c = context('direct');
    const out = await gateChange(c.ctx, n.adapter, call, n.apply(call), opts);
    assert.equal(out.kind, 'applied');
    if (out.kind !== 'applied') return;
    assert.equal(out.change_id, 'c1');
    assert.deepEqual(out.confirmed_by, { how: 'direct', who: 'alice' });
    const [rec] = c.shared.records;
    assert.deepEqual(rec?.before, { name: 'SEP1', description: 'old' });
    assert.deepEqual(rec?.after, { name: 'SEP1', description: 'new' });
    assert.equal(rec?.outcome, 'applied');
    assert.deepEqual(c.confirmations, [{ how: 'direct', who: 'alice' }]);
  });

  it('writes confirm: a change without plan_id, to a client that cannot be asked, is CONFIRMATION_REQUIRED', async () => {
    const n = node('change');
    const c = context('confirm');
    assert.equal(
      await code(gateChange(c.ctx, n.adapter, call, n.apply(call), opts)),
      'CONFIRMATION_REQUIRED',
    );
    assert.equal(n.state.sent, 0);
  });

  it('destructive needs confirmation even under writes direct', async () => {
    const n = node('destructive');
    const c = context('direct');
    assert.equal(
      await code(gateChange(c.ctx, n.adapter, call, n.apply(call), opts)),
      'CONFIRMATION_REQUIRED',
    );
    assert.equal(n.state.sent, 0);
  });

  it('a plan_id from the preview confirms the change once; its reuse is PLAN_USED', async () => {
    const n = node('destructive');
    const c = context('direct');
    const dry = await gateChange(c.ctx, n.adapter, { ...call, dry_run: true }, n.apply(call), opts);
    assert.ok(dry.kind === 'dry_run');
    const plan_id = dry.answer.plan_id;
    const out = await gateChange(c.ctx, n.adapter, { ...call, plan_id }, n.apply(call), opts);
    assert.ok(out.kind === 'applied');
    assert.deepEqual(out.confirmed_by, { how: 'plan', who: 'alice' });
    assert.equal(c.shared.records[0]?.plan_id, plan_id);
    assert.deepEqual(c.confirmations, [{ how: 'plan', who: 'alice', plan_id }]);
    assert.equal(
      await code(gateChange(c.ctx, n.adapter, { ...call, plan_id }, n.apply(call), opts)),
      'PLAN_USED',
    );
    assert.equal(n.state.sent, 1);
  });

  it('a plan for other arguments is PLAN_MISMATCH, nothing sent', async () => {
    const n = node('destructive');
    const c = context('direct');
    const dry = await gateChange(c.ctx, n.adapter, { ...call, dry_run: true }, n.apply(call), opts);
    assert.ok(dry.kind === 'dry_run');
    const other = { ...call, description: 'other', plan_id: dry.answer.plan_id };
    assert.equal(await code(gateChange(c.ctx, n.adapter, other, n.apply(other), opts)), 'PLAN_MISMATCH');
    assert.equal(n.state.sent, 0);
  });

  it('an object changed between preview and apply is CHANGED_SINCE_PREVIEW with the diff now, nothing sent', async () => {
    const n = node('destructive');
    const c = context('direct');
    const dry = await gateChange(c.ctx, n.adapter, { ...call, dry_run: true }, n.apply(call), opts);
    assert.ok(dry.kind === 'dry_run');
    n.state.object.description = 'someone else';
    const err = await gateChange(
      c.ctx,
      n.adapter,
      { ...call, plan_id: dry.answer.plan_id },
      n.apply(call),
      opts,
    ).then(
      () => undefined,
      (e: unknown) => e as KernelError,
    );
    assert.equal(err?.code, 'CHANGED_SINCE_PREVIEW');
    assert.deepEqual(err?.details?.diff_now, [{ path: 'description', before: 'someone else', after: 'new' }]);
    assert.equal(n.state.sent, 0);
    assert.equal(c.shared.records.length, 0);
  });

  it('elicitation: asks the person with the diff; accept applies, audited as elicitation', async () => {
    const n = node('destructive');
    const first = context('direct', { elicitation: true });
    const out = await gateChange(first.ctx, n.adapter, call, n.apply(call), opts);
    assert.ok(out.kind === 'input');
    const req = out.reply.inputRequired?.requests?.confirm_change;
    assert.equal(req?.method, 'elicitation/create');
    assert.match(String(req?.params?.message), /description: old -> new/);
    assert.equal(n.state.sent, 0);
    const state = String(out.reply.inputRequired?.state);
    const second = context(
      'direct',
      {
        elicitation: true,
        state,
        responses: { confirm_change: { action: 'accept', content: { confirm: true } } },
      },
      first.shared,
    );
    const done = await gateChange(second.ctx, n.adapter, call, n.apply(call), opts);
    assert.ok(done.kind === 'applied');
    assert.equal(done.confirmed_by?.how, 'elicitation');
    assert.equal(n.state.sent, 1);
    assert.equal(first.shared.records[0]?.confirmed_by?.how, 'elicitation');
  });

  for (const answer of [
    { action: 'decline' },
    { action: 'cancel' },
    { action: 'accept', content: { confirm: false } },
  ])
    it(`elicitation: ${JSON.stringify(answer)} is CONFIRMATION_DECLINED, nothing sent`, async () => {
      const n = node('destructive');
      const first = context('confirm', { elicitation: true });
      const out = await gateChange(first.ctx, n.adapter, call, n.apply(call), opts);
      assert.ok(out.kind === 'input');
      const state = String(out.reply.inputRequired?.state);
      const second = context(
        'confirm',
        { elicitation: true, state, responses: { confirm_change: answer } },
        first.shared,
      );
      assert.equal(
        await code(gateChange(second.ctx, n.adapter, call, n.apply(call), opts)),
        'CONFIRMATION_DECLINED',
      );
      assert.equal(n.state.sent, 0);
    });

  it("the elicitation's plan cannot be used as a plain plan_id (the person must answer)", async () => {
    const n = node('destructive');
    const c = context('direct', { elicitation: true });
    const out = await gateChange(c.ctx, n.adapter, call, n.apply(call), opts);
    assert.ok(out.kind === 'input');
    const plan_id = String(out.reply.inputRequired?.state).replace(/^change-plan:/, '');
    const plain = context('direct', {}, c.shared);
    assert.equal(
      await code(gateChange(plain.ctx, n.adapter, { ...call, plan_id }, n.apply(call), opts)),
      'PLAN_MISMATCH',
    );
    assert.equal(n.state.sent, 0);
  });

  it('a failed apply is journalled failed and rethrown; a timeout is uncertain', async () => {
    const n = node('change');
    const c = context('direct');
    const refused = () => Promise.reject(Object.assign(new KernelErrorFor('AXLError', 'no such phone')));
    assert.equal(await code(gateChange(c.ctx, n.adapter, call, refused, opts)), 'AXLError');
    const timeout = () => Promise.reject(new KernelErrorFor('ConnectivityError', 'the node timed out'));
    assert.equal(await code(gateChange(c.ctx, n.adapter, call, timeout, opts)), 'ConnectivityError');
    assert.deepEqual(
      c.shared.records.map((r) => [r.outcome, r.after, r.error]),
      [
        ['failed', null, 'AXLError: no such phone'],
        ['uncertain', null, 'ConnectivityError: the node timed out'],
      ],
    );
  });
});

class KernelErrorFor extends KernelError {
  readonly status = 400;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
