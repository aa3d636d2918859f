// The shipped profiles and the serviceability service: every built-in profile may read PerfMon (the
// tools' allowlist subjects), each client's window for the service is set per product, and only the
// admin profile's allowlist goes beyond the read operations.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { allowlisted, rateWindow, toolPermitted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema } from '../../../../kernel/rbac/profile-schema.ts';

const load = (name: string) =>
  profileSchema.parse(
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles', '_default', `${name}.json`), 'utf8')),
  );

describe('the serviceability service in the default profiles', () => {
  for (const name of ['auditor', 'operator', 'admin']) {
    it(`${name}: may call the PerfMon tools, whose operations its allowlist names`, () => {
      const p = load(name);
      for (const product of ['cucm', 'imp', 'cuc']) {
        assert.ok(toolPermitted(p, `${product}_perfmon_list_counters`));
        assert.ok(toolPermitted(p, `${product}_perfmon_query`));
        assert.deepEqual(rateWindow(p, product as 'cucm', 'serviceability'), {
          limit: 60,
          windowSeconds: 60,
        });
      }
      for (const op of ['perfmonListCounter', 'perfmonCollectCounterData'])
        assert.ok(allowlisted(p, 'serviceability', op), `${name}: ${op}`);
      assert.equal(allowlisted(p, 'serviceability', 'soapDoControlServices'), name === 'admin');
    });
  }
});
