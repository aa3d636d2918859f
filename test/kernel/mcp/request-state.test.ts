// Multi-round-trip calls (SEP-2322) in the kernel: the state a tool returns for its next round is
// sealed to that tool and caller, handed back verified, refused altered, expired or foreign; the tool
// sees what the client can answer and its answers; every round is gated and audited.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RequestStateSeal } from '../../../kernel/mcp/request-state.ts';
import type { CallInput } from '../../../kernel/mcp/tool-runner.ts';
import type { CallerInfo } from '../../../kernel/sdk/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import {
  CONFORMANCE_CLIENT,
  startServerUnderTest,
  type ServerUnderTest,
} from '../../conformance/runner/server-under-test.ts';

describe('request-state seal', () => {
  const call = { tool: 'test_x', client: 'alice' };

  it('opens what it sealed, for the same tool and client only', () => {
    const seal = new RequestStateSeal();
    const sealed = seal.seal(call, 'step-2:{"name":"Ada"}');
    assert.equal(seal.open(call, sealed), 'step-2:{"name":"Ada"}');
    assert.equal(seal.open({ client: 'alice' }, sealed), 'step-2:{"name":"Ada"}');
    assert.throws(() => seal.open({ tool: 'test_y', client: 'alice' }, sealed), /issued for another call/);
    assert.throws(() => seal.open({ tool: 'test_x', client: 'bob' }, sealed), /issued for another call/);
  });

  it('refuses an altered, re-signed elsewhere, expired, oversized or malformed state with BAD_REQUEST', () => {
    let now = 1_000_000;
    const seal = new RequestStateSeal(undefined, 60_000, () => now);
    const sealed = seal.seal(call, 'x');
    const [v, body, mac] = sealed.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ t: 'test_x', c: 'alice', s: 'admin', e: now + 60_000 }),
    ).toString('base64url');
    const attempts = [
      `${sealed}-TAMPERED`,
      `${v}.${forged}.${mac}`,
      // Always another MAC: one in 1024 already ends in AA, which made this attempt the original.
      `${v}.${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`,
      new RequestStateSeal().seal(call, 'x'),
      'v1.a.b.c',
      'plain text',
      'x'.repeat(20_000),
      42,
      { state: 'x' },
    ];
    for (const a of attempts)
      assert.throws(() => seal.open(call, a), { code: 'BAD_REQUEST' }, String(a).slice(0, 40));
    now += 60_001;
    assert.throws(() => seal.open(call, sealed), /expired/);
    assert.throws(() => seal.seal(call, 'y'.repeat(5000)), /over 4096 bytes/);
  });
});

describe('multi-round-trip tool calls in the runner', () => {
  let s: ServerUnderTest;
  const caller: CallerInfo = { name: CONFORMANCE_CLIENT, profile: CONFORMANCE_CLIENT, products: [] };
  const call = (name: string, input?: CallInput, who: CallerInfo = caller) =>
    s.kernel.kernel.mcp.runner.call(
      name,
      {},
      {
        caller: who,
        ip: '127.0.0.1',
        signal: new AbortController().signal,
        ...(input ? { input } : {}),
      },
    );
  before(async () => {
    s = await startServerUnderTest({ extraClients: ['other:conformance:cucm'] });
  });
  after(() => s.stop());

  it('an input-required reply carries the requests and a sealed state; the next round gets both back', async () => {
    const first = await call('test_input_required_result_request_state');
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['confirm']);
    const sealed = String(first.requestState);
    assert.match(sealed, /^v1\./);
    assert.notEqual(sealed, 'awaiting-confirmation');

    const second = await call('test_input_required_result_request_state', {
      responses: { confirm: { action: 'accept', content: { ok: true } } },
      state: sealed,
    });
    assert.deepEqual(second.content, [{ type: 'text', text: 'state-ok: confirmed=true' }]);

    const outcomes = actionOutcomes(s.kernel.auditRecords()).filter(
      (r) => r.tool_name === 'test_input_required_result_request_state',
    );
    assert.deepEqual(
      outcomes.map((r) => [r.result, r.input_requested]),
      [
        ['ALLOWED', 'confirm'],
        ['ALLOWED', undefined],
      ],
    );
  });

  it('a tampered state, or one issued to another tool or client, never reaches the tool', async () => {
    const sealed = String((await call('test_input_required_result_tampered_state')).requestState);
    const answers = { confirm: { action: 'accept', content: { ok: true } } };
    const other: CallerInfo = { name: 'other', profile: CONFORMANCE_CLIENT, products: [] };
    for (const [name, state, who] of [
      ['test_input_required_result_tampered_state', `${sealed}-TAMPERED`, caller],
      ['test_input_required_result_request_state', sealed, caller],
      ['test_input_required_result_tampered_state', sealed, other],
    ] as const) {
      const r = await call(name, { responses: answers, state }, who);
      assert.equal(r.isError, true, `${name} as ${who.name}`);
      assert.equal(r.structuredContent?.error, 'BAD_REQUEST');
    }
    assert.throws(() => s.kernel.kernel.mcp.runner.checkRequestState(`${sealed}x`, CONFORMANCE_CLIENT));
    assert.throws(() => s.kernel.kernel.mcp.runner.checkRequestState(sealed, 'other'));
    s.kernel.kernel.mcp.runner.checkRequestState(sealed, CONFORMANCE_CLIENT);
  });

  it('a tool asks only for what the client declared it can answer', async () => {
    const both = await call('test_input_required_result_capabilities', {
      capabilities: { elicitation: {}, sampling: {} },
    });
    assert.deepEqual(Object.keys(both.inputRequests ?? {}).sort(), ['topic', 'user_name']);
    const samplingOnly = await call('test_input_required_result_capabilities', {
      capabilities: { sampling: {} },
    });
    assert.deepEqual(Object.keys(samplingOnly.inputRequests ?? {}), ['topic']);
    const none = await call('test_input_required_result_capabilities');
    assert.equal(none.resultType, undefined);
    assert.deepEqual(none.content, [{ type: 'text', text: 'Nothing (more) to ask this client.' }]);
  });

  it('every round passes the gate: a profile without the tool is refused before it asks anything', async () => {
    const auditorLike: CallerInfo = { name: 'other', profile: 'auditor', products: [] };
    const r = await call('test_input_required_result_elicitation', undefined, auditorLike);
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
  });
});
