// Regressions: the very first start writes the default profiles, the TLS pair and the clients. Two of
// those writes were not crash safe:
// - the default profiles were copied in place, so a crash mid-copy left a torn profiles/admin.json that
//   every later start kept as the operator's own (and refused to load);
// - the TLS key and certificate were written one after the other, so a crash in between left a key
//   without its certificate (or, at a renewal, beside the old certificate) and every later start
//   stopped with STARTUP_FAILED.
// The first start is killed at each of those steps (the copy torn halfway); the next start must come up
// and leave every state file whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freePort, spawnServer } from '../../helpers/server-process.ts';
import { crashDuringStart, spawnArmed, type CrashPoint } from './crash-points.ts';
import { crashStateDir } from './harness.ts';
import { checkStateFiles } from './state-files.ts';

const POINTS: [string, CrashPoint][] = [
  ['a default profile written halfway', { at: 1, match: '/profiles/admin\\.json$', torn: true }],
  ['the TLS key in place, its certificate not yet', { at: 1, match: '/secrets/tls_cert\\.pem$' }],
  ['the TLS pair staged halfway', { at: 1, match: '/secrets/tls_cert\\.pem\\.next$' }],
];

describe('crash during the first start', () => {
  for (const [what, point] of POINTS) {
    it(`the next start comes up with every state file whole: ${what}`, async () => {
      const state = crashStateDir('ucmcp-crash-first-');
      try {
        const o = { stateDir: state.dir, port: await freePort(), env: { AUTH_CLIENTS: 'a:admin:cucm' } };
        const armed = spawnArmed(o, point);
        assert.equal(await crashDuringStart(armed), true, 'the first start died at the step');
        const next = spawnServer(o);
        await next.ready;
        assert.equal(await next.stop(), 0);
        const report = await checkStateFiles(state.dir);
        assert.deepEqual(report.problems, []);
        assert.ok((report.kinds.profile ?? 0) >= 3, 'the default profiles are there');
      } finally {
        state.cleanup();
      }
    });
  }
});
