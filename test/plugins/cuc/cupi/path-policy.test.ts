// The CUPI path policy on its own: hostile spellings refused with BAD_REQUEST, valid ones reduced to the
// one canonical form the allowlist and the request both use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError } from '../../../../kernel/sdk/index.ts';
import { canonicalCupiPath, encodeQuery, resourcePath } from '../../../../plugins/cuc/cupi/path-policy.ts';
import { HOSTILE } from './hostile-paths.ts';

function refused(path: string): BadRequestError {
  try {
    canonicalCupiPath(path);
  } catch (err) {
    assert.ok(err instanceof BadRequestError, `${JSON.stringify(path)}: ${String(err)}`);
    return err;
  }
  assert.fail(`${JSON.stringify(path)} was accepted`);
}

describe('CUPI path policy', () => {
  it(`refuses ${HOSTILE.length} hostile forms with BAD_REQUEST`, () => {
    for (const [path, why] of HOSTILE) {
      const err = refused(path);
      assert.equal(err.code, 'BAD_REQUEST', why);
      assert.match(err.message, /^CUPI path refused: /, why);
    }
  });

  it('says which rule a path broke', () => {
    assert.match(refused('https://evil.example.com/vmrest/users').message, /absolute URLs/);
    assert.match(refused('/vmrest/%2e%2e/axl').message, /"\." and "\.\." segments/);
    assert.match(refused('/vmrest/%252e%252e/axl').message, /encoded twice/);
    assert.match(refused('/vmrest/%c0%ae%c0%ae/axl').message, /not valid UTF-8/);
    assert.match(refused('/vmrest/users?x=1').message, /pass parameters in "query"/);
    assert.match(refused('/vmrestx/users').message, /must start with \/vmrest\//);
  });

  it('keeps valid paths and reduces every spelling to one canonical form', () => {
    const cases: [string, string][] = [
      ['/vmrest/users', '/vmrest/users'],
      ['/vmrest/users/', '/vmrest/users'],
      ['/vmrest/version/product/', '/vmrest/version/product'],
      ['/vmrest/%76ersion/%70roduct', '/vmrest/version/product'],
      ['/vmrest/%75sers', '/vmrest/users'],
      [
        '/vmrest/users/0b7d8c5e-2a41-4f4e-9a2e-0f5d2c7b9a11/credential/pin',
        '/vmrest/users/0b7d8c5e-2a41-4f4e-9a2e-0f5d2c7b9a11/credential/pin',
      ],
      ['/vmrest/handlers/callhandlers', '/vmrest/handlers/callhandlers'],
      ['/vmrest/handlers/callhandlers/abc/menuentries/*', '/vmrest/handlers/callhandlers/abc/menuentries/*'],
      [
        '/vmrest/handlers/callhandlers/abc/menuentries/%23',
        '/vmrest/handlers/callhandlers/abc/menuentries/%23',
      ],
      [
        '/vmrest/handlers/callhandlers/abc/menuentries/%2a',
        '/vmrest/handlers/callhandlers/abc/menuentries/*',
      ],
      ['/vmrest/users/a.b_c~d-e', '/vmrest/users/a.b_c~d-e'],
    ];
    for (const [given, canonical] of cases) assert.equal(canonicalCupiPath(given), canonical, given);
    // Canonical is a fixed point: normalising twice changes nothing.
    for (const [, canonical] of cases) assert.equal(canonicalCupiPath(canonical), canonical);
  });

  it('turns a list resource into its path, refusing a slash that is not /vmrest/', () => {
    assert.equal(resourcePath('users'), '/vmrest/users');
    assert.equal(resourcePath('handlers/callhandlers/'), '/vmrest/handlers/callhandlers');
    assert.equal(resourcePath('/vmrest/usertemplates'), '/vmrest/usertemplates');
    for (const bad of [
      '/axl/',
      '../axl',
      '%2e%2e/axl',
      'users/../../axl',
      '//evil/users',
      '\\evil',
      'users?x=1',
    ])
      assert.throws(() => resourcePath(bad), BadRequestError, bad);
  });

  it('encodes query parameters, spaces as %20, and refuses odd names and controls', () => {
    assert.equal(encodeQuery({}), '');
    assert.equal(
      encodeQuery({ query: '(alias startswith ab)', sort: undefined, rowsPerPage: 2, flag: true }),
      '?query=(alias%20startswith%20ab)&rowsPerPage=2&flag=true',
    );
    assert.equal(encodeQuery({ q: 'a&b=c#d/../e' }), '?q=a%26b%3Dc%23d%2F..%2Fe');
    for (const bad of [
      { 'a b': 'x' },
      { '../x': 'x' },
      { x: 'a\r\nb' },
      { x: 'a'.repeat(2000) },
      { x: '\ud800' },
    ])
      assert.throws(() => encodeQuery(bad), BadRequestError, JSON.stringify(bad));
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`p${i}`, 'v']));
    assert.throws(() => encodeQuery(many), BadRequestError);
  });
});
