// A check's sources shown wherever the check is: the audit prompt (each URL once per check, the
// benchmark ids, an UNVERIFIED line, and report instructions that carry them on), the security-guide
// chapter (every reference with what it confirms, a verification line) and the scripted report (each
// finding line and summary row). Then the same for the shipped checklists, so a check that gains
// references shows them without anyone touching the renderers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Check, Checklist } from '../../../../plugins/_shared/audit/checklist.ts';
import { citationLines, citationText } from '../../../../plugins/_shared/audit/citations.ts';
import { renderGuideChapter } from '../../../../plugins/_shared/audit/guide.ts';
import { renderAuditPrompt } from '../../../../plugins/_shared/audit/render-prompt.ts';
import type { ChecklistRun } from '../../../../plugins/_shared/audit/run-checklist.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import { reportSections } from '../../../helpers/audit-run.ts';

const GUIDE =
  'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/security/15_0/cucm_b_security-guide-release-15.html';
const DD = 'https://developer.cisco.com/docs/axl-schema-reference/';

const base = {
  topic: 'tls',
  rationale: 'Old protocol versions are broken.',
  evidence: [{ id: 'v', tool: 'cucm_os_run_command', args: { host: '{host}' }, purpose: 'the version' }],
  condition: 'the minimum is below 1.2',
  evaluate: () => 'seen',
  severity: 'high',
  remediation: 'set tls min-version 1.2',
} satisfies Partial<Check>;

const CITED: Check = {
  ...base,
  id: 'T-CITE-01',
  title: 'Cited check',
  references: [
    { document: 'Security Guide for CUCM', release: '15', section: 'TLS Prerequisites', url: GUIDE },
    { document: 'Security Guide for CUCM', release: '15', section: 'Set Minimum TLS Version', url: GUIDE },
    {
      document: 'AXL Schema Reference',
      release: '15.0',
      section: 'processconfig',
      url: DD,
      confirms: ['processconfig.paramname'],
    },
  ],
  benchmarks: ['STIG CUCM-15-000123'],
};
const UNVERIFIED: Check = {
  ...base,
  id: 'T-UNV-01',
  title: 'Unverified check',
  references: [{ document: 'CLI Reference', release: '15', section: 'show tls', url: GUIDE }],
  unverified: 'no public source names the TLSCiphers parameter',
};
const BARE: Check = { ...base, id: 'T-BARE-01', title: 'Bare check', references: [] };

const CHECKLIST: Checklist = {
  product: 'cucm',
  prompt: 'cucm_security_audit',
  title: 'Test audit',
  guide: 'test guide',
  topics: [{ id: 'tls', title: 'TLS', summary: 'Transport security.' }],
  checks: [CITED, UNVERIFIED, BARE],
};

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** The lines of one check's section of the prompt (from its heading to the next heading). */
function promptSection(prompt: string, id: string): string {
  const start = prompt.indexOf(`#### ${id} `);
  assert.ok(start >= 0, id);
  const next = prompt.indexOf('\n#', start + 1);
  return prompt.slice(start, next < 0 ? undefined : next);
}

describe('check citations', () => {
  it('group a check’s sections by URL, each URL once', () => {
    assert.deepEqual(citationLines(CITED), [
      `Security Guide for CUCM (15), TLS Prerequisites; Set Minimum TLS Version: ${GUIDE}`,
      `AXL Schema Reference (15.0), processconfig: ${DD}`,
    ]);
    assert.equal(citationText(BARE), 'none cited');
  });

  it('the prompt shows each check’s references, benchmarks and unverified mark, and asks the report to carry them', () => {
    const prompt = renderAuditPrompt(CHECKLIST, { host: 'cucm-pub', report: 'a.md', scope: 'all' });
    const cited = promptSection(prompt, 'T-CITE-01');
    for (const line of citationLines(CITED)) assert.ok(cited.includes(line), line);
    assert.equal(occurrences(cited, GUIDE), 1, 'a URL is not repeated within a check');
    assert.match(cited, /^Benchmarks: STIG CUCM-15-000123$/m);
    assert.doesNotMatch(cited, /UNVERIFIED/);
    const unverified = promptSection(prompt, 'T-UNV-01');
    assert.match(unverified, /^References: CLI Reference \(15\), show tls: https:\/\//m);
    assert.match(unverified, /^UNVERIFIED: no public source names the TLSCiphers parameter$/m);
    assert.doesNotMatch(promptSection(prompt, 'T-BARE-01'), /^(References|UNVERIFIED|Benchmarks)/m);
    assert.match(prompt, /for a FINDING add its references \(document, section, URL\) and benchmark ids/);
    assert.match(prompt, /UNVERIFIED add "\(unverified: <reason>\)"/);
    assert.match(prompt, /## Summary`: a table of findings \([^)]*references, and "unverified"/);
  });

  it('the security-guide chapter lists every reference with what it confirms, benchmarks and a verification line', () => {
    const chapter = renderGuideChapter(CHECKLIST, 'tls');
    assert.ok(
      chapter.includes(
        `  - AXL Schema Reference (15.0), processconfig: ${DD} (confirms \`processconfig.paramname\`)`,
      ),
    );
    assert.ok(chapter.includes(`  - Security Guide for CUCM (15), Set Minimum TLS Version: ${GUIDE}`));
    assert.ok(chapter.includes('- **Benchmarks:** STIG CUCM-15-000123'));
    assert.equal(occurrences(chapter, '- **Verification:** verified'), 2);
    assert.ok(
      chapter.includes('- **Verification:** unverified: no public source names the TLSCiphers parameter'),
    );
    assert.ok(chapter.includes('- **References:** none cited'));
  });

  it('the report carries each finding’s references and benchmarks, and marks unverified checks', () => {
    const run: ChecklistRun = {
      findings: [CITED, UNVERIFIED].map((c) => ({
        check: c.id,
        severity: c.severity,
        title: c.title,
        detail: 'seen',
      })),
      unjudged: [],
      calls: 1,
      callsByTool: {},
    };
    const report = reportSections(CHECKLIST, 'cucm-pub', run).join('');
    const line = (id: string): string => report.split('\n').find((l) => l.startsWith(`- ${id} `)) ?? '';
    const row = (id: string): string => report.split('\n').find((l) => l.startsWith(`| ${id} |`)) ?? '';
    assert.ok(line('T-CITE-01').includes(`References: ${citationText(CITED)}`));
    assert.ok(line('T-CITE-01').includes('Benchmarks: STIG CUCM-15-000123'));
    assert.ok(row('T-CITE-01').includes(citationText(CITED).replaceAll('|', '\\|')));
    assert.match(row('T-CITE-01'), /\| verified \|$/);
    assert.ok(line('T-UNV-01').endsWith('(unverified: no public source names the TLSCiphers parameter)'));
    assert.match(row('T-UNV-01'), /\| unverified: no public source names the TLSCiphers parameter \|$/);
    assert.equal(line('T-BARE-01'), '- T-BARE-01 PASS');
  });

  it('the shipped checklists’ prompts and chapters show what each check cites', () => {
    for (const checklist of [CUCM_CHECKLIST, IMP_CHECKLIST, CUC_CHECKLIST]) {
      const prompt = renderAuditPrompt(checklist, { host: 'h', report: 'a.md', scope: 'all' });
      for (const c of checklist.checks) {
        const section = promptSection(prompt, c.id);
        for (const line of citationLines(c)) assert.ok(section.includes(line), `${c.id}: ${line}`);
        for (const url of new Set((c.references ?? []).map((r) => r.url)))
          assert.equal(occurrences(section, url), 1, `${c.id}: ${url} once`);
        if (c.unverified) assert.ok(section.includes(`UNVERIFIED: ${c.unverified}`), c.id);
        const chapter = renderGuideChapter(checklist, c.topic);
        for (const r of c.references ?? []) assert.ok(chapter.includes(r.url), `${c.id}: ${r.url}`);
        if (c.unverified) assert.ok(chapter.includes(`unverified: ${c.unverified}`), c.id);
      }
    }
  });
});
