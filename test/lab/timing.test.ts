// LAB_TIMING: the VOS CLI at a real node's speed when asked, the fast lab otherwise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveOptions } from '../../lab/options.ts';
import { REALISTIC_COMMAND_DELAYS_MS, REALISTIC_LOGIN_DELAY_MS } from '../../lab/vos/timing.ts';

describe('lab timing', () => {
  it('is fast unless LAB_TIMING or the option asks for realistic', () => {
    const fast = resolveOptions({}, {});
    assert.equal(fast.timing, 'fast');
    assert.equal(fast.loginDelayMs, 300);
    assert.deepEqual(fast.commandDelaysMs, {});

    const real = resolveOptions({}, { LAB_TIMING: 'realistic' });
    assert.equal(real.timing, 'realistic');
    assert.equal(real.loginDelayMs, REALISTIC_LOGIN_DELAY_MS);
    assert.equal(REALISTIC_LOGIN_DELAY_MS, 8_000);
    assert.ok((real.commandDelaysMs['utils dbreplication runtimestate'] ?? 0) >= 3_000);
    assert.ok((real.commandDelaysMs['show perf query'] ?? 0) >= 2_000);
    assert.ok((real.commandDelaysMs['utils disaster_recovery history'] ?? 0) >= 2_000);
    assert.deepEqual(real.commandDelaysMs, { ...REALISTIC_COMMAND_DELAYS_MS });

    // An explicit option wins over the environment, and explicit delays over the timing's.
    const mixed = resolveOptions(
      { timing: 'realistic', loginDelayMs: 50, commandDelaysMs: { 'show perf query': 10 } },
      { LAB_TIMING: 'fast' },
    );
    assert.equal(mixed.loginDelayMs, 50);
    assert.equal(mixed.commandDelaysMs['show perf query'], 10);
    assert.equal(mixed.commandDelaysMs['utils dbreplication runtimestate'], 6_000);
    assert.throws(() => resolveOptions({}, { LAB_TIMING: 'slow' }), /fast or realistic/);
  });
});
