// The database and parameter names of the CUCM audit as public sources spell them: processconfig rows
// carry the programmatic ids of the parameter pages (case and all, the comparison is exact), and a
// calling search space's partitions are read from AXL listCss (its clause), not by joining a table whose
// columns no public source shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { AUDITED_PARAMETERS, E } from '../../../../plugins/cucm/audit/evidence.ts';

const check = (id: string) => {
  const c = CUCM_CHECKLIST.checks.find((x) => x.id === id);
  assert.ok(c, id);
  return c;
};
const rows = (...r: Record<string, unknown>[]): EvidenceResult => ({ ok: true, data: { rows: r } });
const params = (...p: [string, string][]) =>
  rows(...p.map(([paramname, paramvalue]) => ({ paramname, paramvalue })));
const oneNode = rows({ name: 'CM_cucm-pub', processNodeName: 'cucm-pub' });

describe('the CUCM audit reads parameters under their real ids', () => {
  it('asks for TLSCipherPreference and BlockOffNetToOffNetTransfer, spelled as the parameter pages submit them', () => {
    assert.ok(AUDITED_PARAMETERS.includes('TLSCipherPreference'));
    assert.ok(AUDITED_PARAMETERS.includes('BlockOffNetToOffNetTransfer'));
    assert.ok(AUDITED_PARAMETERS.includes('CdrEnabled'));
    const all = JSON.stringify(CUCM_CHECKLIST.checks.map((c) => [c.evidence, c.condition]));
    assert.doesNotMatch(all, /TLSCiphers|BlockOffnetToOffnetTransfer/);
  });

  it('judges the rows a real node returns under those ids', () => {
    const tls = check('CUCM-TLS-02').evaluate({
      parameters: params(['TLSCipherPreference', 'ALL_CIPHERS RSA Preferred']),
    });
    assert.match(tls ?? '', /ALL_CIPHERS/);
    const offnet = check('CUCM-TOLL-03').evaluate({
      callManagers: oneNode,
      parameters: params(['BlockOffNetToOffNetTransfer', 'F']),
    });
    assert.match(offnet ?? '', /off-net to off-net transfer allowed/);
    assert.equal(
      check('CUCM-TOLL-03').evaluate({
        callManagers: oneNode,
        parameters: params(['BlockOffNetToOffNetTransfer', 'T']),
      }),
      undefined,
    );
  });

  it('cites the source of the ids and no longer calls them unverified', () => {
    for (const id of ['CUCM-TOLL-03', 'CUCM-LOG-02']) {
      const c = check(id);
      assert.equal(c.unverified, undefined, id);
      assert.ok(
        c.references?.some((r) => r.url.endsWith('/CiscoDevNet/cucm-service-param-name-mapper')),
        id,
      );
    }
  });
});

describe('the CUCM toll-fraud checks read calling search spaces from AXL', () => {
  const css = (uuid: string, name: string, clause: string) => ({
    $attributes: { uuid: `{${uuid.toUpperCase()}}` },
    name,
    clause,
  });
  const pattern = (p: string, partition: string, fac = 'false') => ({
    pattern: p,
    routePartitionName: { $value: partition },
    authorizationCodeRequired: fac,
  });

  it('uses listCss (name, clause) and no callingsearchspacemember SQL', () => {
    assert.equal(E.css.args.operation, 'listCss');
    assert.deepEqual((E.css.args.args as { returnedTags: unknown }).returnedTags, { name: '', clause: '' });
    const sql = JSON.stringify(CUCM_CHECKLIST.checks.map((c) => c.evidence));
    assert.doesNotMatch(sql, /callingsearchspacemember/);
  });

  it('follows a phone CSS uuid to its clause and the route patterns in those partitions', () => {
    const results = {
      phoneSettings: rows({ fksecurityprofile: 'p1', fkcallingsearchspace: 'aa-11' }),
      css: rows(css('aa-11', 'CSS_Phones', 'PT_Internal:PT_Intl'), css('bb-22', 'CSS_Other', 'PT_Internal')),
      routePatterns: rows(
        pattern('9.011!', 'PT_Intl'),
        pattern('9.011!', 'PT_Other'),
        pattern('1XXX', 'PT_Internal'),
      ),
    };
    assert.match(check('CUCM-TOLL-02').evaluate(results) ?? '', /^CSS_Phones reaches 9\.011! without FAC$/);
    results.css = rows(css('aa-11', 'CSS_Phones', 'PT_Internal'));
    assert.equal(check('CUCM-TOLL-02').evaluate(results), undefined);
  });

  it('finds a trunk whose inbound CSS reaches a route pattern, by the CSS name', () => {
    const results = {
      sipTrunks: rows({ name: 'ITSP', callingSearchSpaceName: { $value: 'CSS_Trunk' } }),
      css: rows(css('cc-33', 'CSS_Trunk', 'PT_PSTN')),
      routePatterns: rows(pattern('9.@', 'PT_PSTN')),
    };
    assert.match(check('CUCM-TOLL-01').evaluate(results) ?? '', /ITSP \(CSS CSS_Trunk reaches 9\.@\)/);
    results.css = rows(css('cc-33', 'CSS_Trunk', 'PT_Internal'));
    assert.equal(check('CUCM-TOLL-01').evaluate(results), undefined);
  });
});
