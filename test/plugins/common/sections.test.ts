import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headings, insertAfter, resumeInto } from '../../../plugins/common/reports/sections.ts';

const REPORT = '# Audit\n\nintro\n\n## Findings\n\nf1\n\n### Detail\n\nd\n\n## Remediation\n\nr\n';

describe('report sections', () => {
  it('finds headings outside fenced code only', () => {
    const text = '# A\n```\n# not a heading\n```\n## B\n~~~\n## no\n~~~\n';
    assert.deepEqual(
      headings(text).map((h) => h.text),
      ['A', 'B'],
    );
  });

  it('insert_after puts content after the whole section, subsections included', () => {
    const out = insertAfter(REPORT, '## Findings', '## Evidence\n\ne\n');
    assert.ok(out);
    assert.deepEqual(
      headings(out).map((h) => h.text),
      ['Audit', 'Findings', 'Detail', 'Evidence', 'Remediation'],
    );
    assert.equal(insertAfter(REPORT, 'Nope', 'x'), null);
  });

  it('resume replaces a re-sent section instead of duplicating it, and appends a new one', () => {
    const once = resumeInto(REPORT, '## Remediation\n\nr2\n');
    assert.equal(once.replacedFrom, 'Remediation');
    assert.equal(once.text.match(/## Remediation/g)?.length, 1);
    assert.ok(once.text.endsWith('r2\n'));
    const added = resumeInto(REPORT, '## Appendix\n\na\n');
    assert.equal(added.replacedFrom, null);
    assert.ok(added.text.endsWith('## Appendix\n\na\n'));
  });
});
