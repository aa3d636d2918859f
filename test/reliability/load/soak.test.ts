// The bounded soak of `npm test`: bench/soak.ts's run (bench/support/soak.ts), 50 concurrent MCP sessions
// for 15 s after a warm-up in which every session runs the whole mix three times (about 1,500 calls). The
// server's RSS climbs from about 235 to 270-295 MiB during the warm-up (JIT, TLS, vault keys, AXL/CUPI/SSH
// pools, schema caches) and then stays flat, so the long run's 10% bound holds here as is. Both probes
// read RSS after a full GC (see bench/support/licensed-server.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSoak, runSoak, soakViolations } from '../../../bench/support/soak.ts';

describe('load and soak', () => {
  it('50 concurrent sessions: no unexpected error, sessions and fds back, RSS within 10% of warm-up', async (t) => {
    const r = await runSoak({ sessions: 50, seconds: 15, warmupRounds: 3 });
    const report = formatSoak(r);
    t.diagnostic(report);
    assert.deepEqual(soakViolations(r), [], report);
    // The bounds above compare like with like; these say the run was the load it claims to be.
    assert.equal(r.sessionsDuring, 50, report);
    assert.equal(r.after.sessions, 0, report);
    assert.ok(r.calls > 50 * 10, `${r.calls} calls: every session called repeatedly`);
  });
});
