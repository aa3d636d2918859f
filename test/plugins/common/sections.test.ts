import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { headings, insertAfter, outline, resumeInto } from '../../../plugins/common/reports/sections.ts';

const REPORT = '# Audit\n\nintro\n\n## Findings\n\nf1\n\n### Detail\n\nd\n\n## Remediation\n\nr\n';

/** The section scanner as it was (a backtracking pattern per line), kept as the oracle of what is a heading. */
function oldHeadings(markdown: string): { level: number; text: string; offset: number }[] {
  const out: { level: number; text: string; offset: number }[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      const marker = (f[1] as string)[0] as string;
      if (fence === null) fence = marker;
      else if (fence === marker) fence = null;
    } else if (fence === null) {
      const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
      if (h) out.push({ level: (h[1] as string).length, text: (h[2] as string).trim(), offset });
    }
    offset += line.length + 1;
  }
  return out;
}

/**
 * Runs `expr` (over the sections module, bound as `s`) in a child process that is killed after
 * `deadlineMs`: a scan that backtracks would hold a thread for minutes, and in this process would stall
 * the test runner itself. Returns what the expression printed, or null when it was killed.
 */
function withinDeadline(expr: string, deadlineMs: number): string | null {
  const code = `const s = await import(${JSON.stringify(`${PROJECT_ROOT}/plugins/common/reports/sections.ts`)}); console.log(JSON.stringify(${expr}));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8',
    timeout: deadlineMs,
  });
  if (r.signal) return null;
  assert.equal(r.status, 0, r.stderr || r.error?.message);
  return r.stdout.trim();
}

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

  it('finds exactly the headings the old scanner did, with the same level, text and offset', () => {
    const piece = fc.constantFrom(
      '#',
      '##',
      '#######',
      ' ',
      '  ',
      '\t',
      'a',
      'Find ings',
      '#x',
      ' #',
      '\r',
      '\u2028',
      '\u00a0',
      '\ufeff',
      '`',
      '```',
      '~~~',
      '\n',
      '\n',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        assert.deepEqual(headings(text), oldHeadings(text), JSON.stringify(text));
      }),
      { numRuns: 10_000 },
    );
  });

  it('scans in one pass what the heading pattern backtracked on for minutes (resume, insert_after, the outline)', () => {
    // One 64 KB line of alternating spaces and tabs after a heading: the old pattern is cubic on it.
    const out = withinDeadline(
      `((line) => [s.headings(line).length, s.resumeInto('# A\\n', line + '\\n').replacedFrom, s.insertAfter(line + '\\n', 'Findings', 'y') === null, s.outline(line, 5).total])('# Findings' + ' \\t'.repeat(32000) + 'x')`,
      30_000,
    );
    assert.notEqual(out, null, 'the scan did not finish within 30 s');
    assert.deepEqual(JSON.parse(out as string), [1, null, true, 1]);
  });

  it('the outline lists the first headings, counts them all, names the last, and cuts long ones', () => {
    const text = Array.from({ length: 2500 }, (_, i) => `## S${i}\n\nbody\n`).join('');
    const o = outline(text, 1000);
    assert.equal(o.listed.length, 1000);
    assert.equal(o.listed[0], '## S0');
    assert.equal(o.total, 2500);
    assert.equal(o.last, '## S2499');
    const long = outline(`# ${'h'.repeat(500)}\n`, 10);
    assert.equal(long.listed[0], `# ${'h'.repeat(199)}…`);
    assert.equal(long.last, long.listed[0]);
  });
});
