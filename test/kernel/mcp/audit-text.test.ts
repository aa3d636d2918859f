import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUDIT_TEXT_MAX, auditText } from '../../../kernel/mcp/audit-text.ts';

/** Characters that must never reach an audit line raw: they forge lines or drive a terminal. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('auditText: caller text bounded and made inert for the audit log', () => {
  it('keeps ordinary operation names, commands and paths as they are', () => {
    for (const t of ['getPhone', 'show version active', 'GET /vmrest/users', 'selectCmDeviceExt', 'é 𝕏'])
      assert.equal(auditText(t), t);
  });

  it('writes newlines, ANSI sequences, C1 controls, line separators, bidi overrides and lone surrogates as escapes', () => {
    const hostile = 'a\nb\r\u001b[31mc\u009b2J\u2028d\u2029e\u202egnp\u0000\ud800f\udc00\u200bg';
    const out = auditText(hostile);
    assert.doesNotMatch(out, RAW_UNSAFE);
    assert.doesNotMatch(out, /[\ud800-\udfff]/u);
    for (const esc of [
      '\\u000A',
      '\\u000D',
      '\\u001B',
      '\\u009B',
      '\\u2028',
      '\\u2029',
      '\\u202E',
      '\\u0000',
    ])
      assert.ok(out.includes(esc), `${esc} in ${out}`);
    assert.ok(out.includes('\\uD800') && out.includes('\\uDC00'), out);
    // A valid pair stays one character.
    assert.equal(auditText('\ud835\udd4f'), '𝕏');
  });

  it('bounds any input to the limit with a marker giving the original length, whatever it is made of', () => {
    for (const text of [
      'A'.repeat(10_000),
      '\n'.repeat(10_000),
      '\u2028x'.repeat(5_000),
      '𝕏'.repeat(4_000),
    ]) {
      const out = auditText(text);
      assert.ok(out.length <= AUDIT_TEXT_MAX, `${out.length}`);
      assert.match(out, new RegExp(`…\\[${text.length} chars\\]$`));
      assert.doesNotMatch(out, RAW_UNSAFE);
      // Never cut inside an escape or a surrogate pair.
      assert.doesNotMatch(out, /\\(u[0-9A-F]{0,3})?…/);
      assert.doesNotMatch(out, /[\ud800-\udbff]…/);
    }
    assert.equal(auditText('x'.repeat(AUDIT_TEXT_MAX)), 'x'.repeat(AUDIT_TEXT_MAX));
  });
});
