import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertCarriable } from '../../../../plugins/_shared/node/wire-text.ts';

const refusal = (path: string, what: RegExp) => (err: unknown) =>
  err instanceof Error &&
  (err as { code?: string }).code === 'BAD_REQUEST' &&
  err.message.startsWith(`argument ${path} holds `) &&
  what.test(err.message) &&
  err.message.endsWith('nothing was sent');

describe('assertCarriable: what a node cannot receive is named before anything is sent', () => {
  it('XML: NUL, lone surrogates, C0 controls and U+FFFE/U+FFFF anywhere, keys included', () => {
    const cases: [unknown, string, RegExp][] = [
      [{ name: 'SEP\u0000' }, 'args.name', /a NUL character \(U\+0000\)/],
      [{ a: [{ b: 'x\ud800' }] }, 'args.a[0].b', /an unpaired surrogate \(U\+D800\)/],
      [{ a: 'x\udc00y' }, 'args.a', /an unpaired surrogate \(U\+DC00\)/],
      [{ a: '\u001b[31m' }, 'args.a', /a control character \(U\+001B\)/],
      [{ a: '\uffff' }, 'args.a', /a non-character \(U\+FFFF\)/],
      [{ 'ke\u0001y': 'v' }, 'args (a field name)', /U\+0001/],
      [{ $value: '\u0000' }, 'args.$value', /NUL/],
      [{ 'odd key': '\u0002' }, 'args."odd key"', /U\+0002/],
    ];
    for (const [value, path, what] of cases)
      assert.throws(() => assertCarriable(value, 'args', 'xml'), refusal(path, what), path);
  });

  it('XML: tabs, newlines, CR, any valid pair and ordinary text pass', () => {
    assertCarriable(
      { a: 'x\ty\nz\r', b: ['𝕏', 'é', '\u2028', '\u007f', '\u0085'], c: 1, d: null },
      'args',
      'xml',
    );
  });

  it('text (JSON bodies): only NUL and lone surrogates are refused; controls are data', () => {
    assertCarriable({ a: 'line\nbreak\u0001\uffff' }, 'body', 'text');
    assert.throws(
      () => assertCarriable(['ok', { x: 'a\u0000' }], 'body', 'text'),
      refusal('body[1].x', /NUL/),
    );
    assert.throws(() => assertCarriable({ x: '\udfff' }, 'body', 'text'), refusal('body.x', /unpaired/));
  });
});
