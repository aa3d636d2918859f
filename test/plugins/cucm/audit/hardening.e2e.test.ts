// The CUCM hardening checks against real labs: each hardening weakness seeded alone (over the weak
// profile's other data) gives exactly its own check's finding, and with no weakness seeded the
// checklist finds nothing. One kernel serves every lab (test/helpers/audit-combinations.ts), the
// checklist runs through a real MCP client, every evidence call against a real lab node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CUCM_WEAKNESSES } from '../../../../lab/weaknesses/cucm.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { ACCESS_CHECKS } from '../../../../plugins/cucm/audit/checks-access.ts';
import { ENDPOINT_CHECKS } from '../../../../plugins/cucm/audit/checks-endpoints.ts';
import { OAUTH_CHECKS } from '../../../../plugins/cucm/audit/checks-oauth.ts';
import { PLATFORM_CHECKS } from '../../../../plugins/cucm/audit/checks-platform.ts';
import {
  checksOf,
  startCombinationStack,
  type CombinationStack,
} from '../../../helpers/audit-combinations.ts';

const HARDENING = new Set(
  [...ENDPOINT_CHECKS, ...ACCESS_CHECKS, ...OAUTH_CHECKS, ...PLATFORM_CHECKS].map((c) => c.id),
);
const IDS = CUCM_WEAKNESSES.filter((w) => HARDENING.has(w.check));

describe('the CUCM hardening checks, one weakness at a time', () => {
  let s: CombinationStack;
  before(async () => {
    s = await startCombinationStack(CUCM_CHECKLIST);
  });
  after(() => s.stop());

  it('has a weakness for every hardening check', () => {
    assert.deepEqual([...new Set(IDS.map((w) => w.check))].sort(), [...HARDENING].sort());
  });

  it('finds nothing when no weakness is seeded (the weak profile data alone)', async () => {
    const r = await s.audit([]);
    assert.deepEqual(r.unjudged, []);
    assert.deepEqual(r.found, []);
  });

  // Each of these weaknesses alone giving exactly its check is proven, with every other weakness, by
  // test/plugins/shared/audit/combinations-cucm.e2e.test.ts; here only what that sweep does not assert.

  // The existing weaknesses nearest to the new checks: FIPS off (Enhanced Security Mode sits on FIPS),
  // a super-user application user (the CTI and AXL holder checks read the same group tables).
  for (const id of ['cucm-fips-off', 'cucm-privileged-app-user', 'cucm-privileged-passwords-no-expiry']) {
    it(`${id} alone fires no hardening check`, async () => {
      const r = await s.audit([id]);
      assert.deepEqual(r.unjudged, []);
      assert.deepEqual(r.found, checksOf('cucm', [id]));
      assert.ok(!r.found.some((c) => HARDENING.has(c)));
    });
  }

  it('reads the seeded values in its observations, never a community string', async () => {
    const r = await s.audit([
      'cucm-phone-span-to-pc',
      'cucm-phone-web-access',
      'cucm-ldap-auth-no-tls',
      'cucm-snmp-community',
      'cucm-cti-control-all-devices',
      'cucm-enduser-axl-access',
    ]);
    const detail = (id: string): string => r.run.findings.find((f) => f.check === id)?.detail ?? '';
    assert.match(detail('CUCM-PHONE-06'), /common phone profile Standard Common Phone Profile/);
    assert.match(
      detail('CUCM-PHONE-03'),
      /web access enabled on common phone profile Standard Common Phone Profile/,
    );
    assert.match(detail('CUCM-LDAP-01'), /dc1\.lab\.example\.com:389/);
    assert.match(detail('CUCM-SNMP-01'), /1 SNMP v1\/v2c community string/);
    assert.doesNotMatch(detail('CUCM-SNMP-01'), /public/);
    assert.match(detail('CUCM-PRIV-03'), /end user rjones/);
    // Held through the role, in a group not named after it (the old group-name reading missed it).
    assert.equal(detail('CUCM-PRIV-04'), 'end users with AXL access: mlee (through AXL API Users)');
  });
});
