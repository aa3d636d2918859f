// The standing view (a client's client.json toolsets and read-only mode) is kept per narrowing so that
// a permission check builds no Set; it must never outlive the narrowing values it was built from.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { standingView } from '../../../kernel/mcp/toolsets.ts';
import type { Narrowing } from '../../../kernel/rbac/policy.ts';

const toolsetsOf = (n: Narrowing): string[][] => standingView(n).toolsets.map((s) => [...s]);

describe('standing view of a client', () => {
  it('is built once per narrowing, not per check', () => {
    const n: Narrowing = { allowlists: {}, rateLimits: {}, toolsets: ['cucm'], readOnly: true };
    assert.equal(standingView(n), standingView(n));
    assert.deepEqual(toolsetsOf(n), [['cucm']]);
    assert.equal(standingView(n).readOnly, true);
  });

  it('a client.json read again (a new narrowing) applies at the next check', () => {
    const before: Narrowing = { allowlists: {}, rateLimits: {}, toolsets: ['cucm'] };
    assert.deepEqual(toolsetsOf(before), [['cucm']]);
    const after: Narrowing = { allowlists: {}, rateLimits: {}, toolsets: ['imp'], readOnly: true };
    assert.deepEqual(toolsetsOf(after), [['imp']]);
    assert.equal(standingView(after).readOnly, true);
  });

  it('new values on the same narrowing object are not answered from the kept view', () => {
    const n: Narrowing = { allowlists: {}, rateLimits: {}, toolsets: ['cucm'] };
    assert.deepEqual(toolsetsOf(n), [['cucm']]);
    assert.equal(standingView(n).readOnly, false);
    n.toolsets = ['reports'];
    assert.deepEqual(toolsetsOf(n), [['reports']]);
    n.readOnly = true;
    assert.equal(standingView(n).readOnly, true);
    delete n.toolsets;
    assert.deepEqual(toolsetsOf(n), []);
  });
});
