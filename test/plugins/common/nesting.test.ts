import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nestingDepth } from '../../../plugins/common/reports/nesting.ts';

describe('Markdown nesting estimate', () => {
  it('counts quote markers, list markers and indentation in front of a line', () => {
    assert.equal(nestingDepth('plain text\n', 100), 0);
    assert.equal(nestingDepth('> quote\n> > nested\n', 100), 2);
    assert.equal(nestingDepth('>>>> x', 100), 4);
    assert.equal(nestingDepth('- a\n  - b\n    - c\n', 100), 3);
    assert.equal(nestingDepth('1. a\n   2) b\n', 100), 2);
    assert.equal(nestingDepth('> - > 1. x', 100), 4);
    // Not markers: emphasis, a rule without spaces, a number without its dot.
    assert.equal(nestingDepth('**bold** and ---- and 2024 x', 100), 0);
  });

  it('ignores fenced code, whatever its indentation', () => {
    const code = `\`\`\`\n${' '.repeat(500)}deep code\n${'>'.repeat(500)}\n\`\`\`\n`;
    assert.equal(nestingDepth(code, 100), 0);
    assert.ok(nestingDepth(`${code}${'>'.repeat(500)}`, 100) > 100);
  });

  it('stops counting past the limit, on quotes, lists and indentation alike', () => {
    assert.equal(nestingDepth('>'.repeat(1_000_000), 100), 101);
    const lists = Array.from({ length: 300 }, (_, i) => `${' '.repeat(2 * i)}- a`).join('\n');
    assert.equal(nestingDepth(lists, 100), 101);
    assert.equal(nestingDepth(`${'\t'.repeat(51)}x`, 100), 102);
  });
});
