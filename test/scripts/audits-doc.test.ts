// docs/audits.md is generated from the checklists and the lab's weakness lists (npm run docs:audits):
// this fails when a check, a reference, a verification note or a weakness changed and nobody
// regenerated it, and shows that the document carries each check's evidence names and state.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { weaknessesOf } from '../../lab/weaknesses/index.ts';
import { CUC_CHECKLIST } from '../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../plugins/imp/audit/checklist.ts';
import { AUDITS_DOC, evidenceNames, renderAuditsDoc } from '../../scripts/audits-doc.ts';

describe('docs/audits.md', () => {
  it('is what npm run docs:audits generates from the checklists today', () => {
    const current = readFileSync(AUDITS_DOC, 'utf8');
    assert.ok(current === renderAuditsDoc(), 'docs/audits.md is out of date: run npm run docs:audits');
  });

  it('lists every check with its evidence names, references, verification state and weaknesses', () => {
    const doc = renderAuditsDoc();
    const rows = doc.split('\n').filter((l) => l.startsWith('| '));
    for (const checklist of [CUCM_CHECKLIST, IMP_CHECKLIST, CUC_CHECKLIST]) {
      const unverified = checklist.checks.filter((c) => c.unverified).length;
      assert.match(doc, new RegExp(`^${checklist.checks.length} checks, ${unverified} unverified, `, 'm'));
      for (const c of checklist.checks) {
        const row = rows.find((r) => r.startsWith(`| ${c.id} |`)) ?? '';
        assert.ok(row, `${c.id} has a row`);
        for (const e of c.evidence)
          assert.ok(row.includes(evidenceNames(e).replaceAll('|', '\\|')), `${c.id}: ${e.id}`);
        for (const r of c.references ?? []) assert.ok(row.includes(`<${r.url}>`), `${c.id}: ${r.url}`);
        assert.ok(row.includes(c.unverified ? '**unverified**' : '| verified |'), `${c.id}: state`);
        for (const w of weaknessesOf(checklist.product as 'cucm').filter((x) => x.check === c.id))
          assert.ok(row.includes(`\`${w.id}\``), `${c.id}: ${w.id}`);
      }
    }
  });

  it('names what each kind of evidence relies on', () => {
    const e = (tool: string, args: Record<string, unknown>) => ({ id: 'x', tool, args, purpose: 'p' });
    assert.equal(
      evidenceNames(e('cucm_axl_call', { operation: 'executeSQLQuery', args: { sql: 'select a from b' } })),
      'SQL `select a from b`',
    );
    assert.equal(
      evidenceNames(e('imp_axl_call', { operation: 'listUser', args: { returnedTags: { userid: '' } } })),
      'AXL `listUser` (returnedTags userid)',
    );
    assert.equal(
      evidenceNames(e('cuc_os_run_command', { command: 'show tls min-version' })),
      'CLI `show tls min-version`',
    );
    assert.equal(
      evidenceNames(e('cuc_cupi_list', { resource: 'users', query: '(alias is x)' })),
      'CUPI `GET /vmrest/users` query `(alias is x)`',
    );
  });
});
