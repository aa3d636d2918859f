// Reading CUPI answers without a node: list shapes, error bodies in JSON, XML and HTML, and cookies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CUPIError } from '../../../../kernel/sdk/index.ts';
import {
  MAX_JSON_DEPTH,
  cupiError,
  nodeError,
  normaliseList,
  parseBody,
} from '../../../../plugins/cuc/cupi/answers.ts';
import { jsessionIdOf } from '../../../../plugins/cuc/cupi/session.ts';

const buf = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('CUPI answers', () => {
  it('normalises the many, single and zero forms of a list to an array with the total', () => {
    const many = normaliseList({ '@total': '6', User: [{ Alias: 'a' }, { Alias: 'b' }] });
    assert.deepEqual(many, { total: 6, objectName: 'User', items: [{ Alias: 'a' }, { Alias: 'b' }] });
    const one = normaliseList({ '@total': '1', Callhandler: { DisplayName: 'Operator' } });
    assert.deepEqual(one, { total: 1, objectName: 'Callhandler', items: [{ DisplayName: 'Operator' }] });
    assert.deepEqual(normaliseList({ '@total': '0' }), { total: 0, items: [] });
    // The object element is found whatever its name, past other @ attributes and stray scalars.
    assert.deepEqual(normaliseList({ '@total': '2', '@uri': '/x', note: 'n', Thing: [{}, {}] })?.items, [
      {},
      {},
    ]);
  });

  it('falls back to the item count when @total is not a number, and refuses a non-list', () => {
    assert.equal(normaliseList({ '@total': 'many', User: [{}, {}, {}] })?.total, 3);
    assert.equal(normaliseList({ Alias: 'jsmith', ObjectId: 'x' }), undefined);
    assert.equal(normaliseList('text'), undefined);
    assert.equal(normaliseList([{ '@total': '1' }]), undefined);
  });

  it('parses JSON bodies, keeps text and the 201 URI as text, and survives hostile JSON', () => {
    assert.deepEqual(parseBody(buf('{"a":["1"]}')), { a: ['1'] });
    assert.equal(parseBody(buf('/vmrest/users/abc')), '/vmrest/users/abc');
    assert.equal(parseBody(buf('<User/>')), '<User/>');
    assert.equal(parseBody(buf('   ')), undefined);
    assert.equal(parseBody(buf('{broken')), '{broken');
    const polluted = parseBody(buf('{"__proto__":{"polluted":"yes"}}'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.ok(polluted && typeof polluted === 'object' && Object.hasOwn(polluted, '__proto__'));
    // Too deep to serialise back into a tool reply: kept as text. Shallow enough: data.
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    assert.equal(parseBody(buf(deep)), deep);
    assert.ok(Array.isArray(parseBody(buf('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)))));
    assert.equal(
      typeof parseBody(buf('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))),
      'string',
    );
  });

  it("extracts the node's code and message from JSON, XML and HTML error bodies", () => {
    assert.deepEqual(nodeError(buf('{"errors":{"code":"NOT_FOUND","message":"User x not found"}}')), {
      code: 'NOT_FOUND',
      message: 'User x not found',
    });
    assert.deepEqual(nodeError(buf('{"errors":[{"code":"A","message":"first"},{"code":"B"}]}')), {
      code: 'A',
      message: 'first',
    });
    assert.deepEqual(
      nodeError(
        buf(
          '<?xml version="1.0"?><ErrorDetails><errors><code>INVALID_PARAMETER</code><message>Invalid query: (a &amp; b)</message></errors></ErrorDetails>',
        ),
      ),
      { code: 'INVALID_PARAMETER', message: 'Invalid query: (a & b)' },
    );
    assert.deepEqual(nodeError(buf('<html><body><h1>HTTP Status 403 - Forbidden</h1></body></html>')), {
      message: 'HTTP Status 403 - Forbidden',
    });
    const long = nodeError(buf(`{"errors":{"message":"${'x'.repeat(5000)}\\r\\ninjected"}}`)).message;
    assert.ok(long.length < 400 && !/[\r\n]/.test(long));
  });

  it('makes CUPIError with the status and message, and a 401 without any credential', () => {
    const e = cupiError(
      'cuc1',
      'GET',
      '/vmrest/users/x',
      404,
      buf('{"errors":{"code":"NOT_FOUND","message":"gone"}}'),
    );
    assert.ok(e instanceof CUPIError);
    assert.equal(e.code, 'CUPIError');
    assert.equal(e.message, 'CUPI GET /vmrest/users/x on cuc1 answered HTTP 404 NOT_FOUND: gone');
    const auth = cupiError('cuc1', 'GET', '/vmrest/users', 401, buf('<h1>401 for user cupiadmin</h1>'));
    assert.match(auth.message, /authentication failed on cuc1 \(HTTP 401\)/);
    assert.doesNotMatch(auth.message, /cupiadmin/);
  });

  it('reads JSESSIONID from Set-Cookie and ignores anything that could break the header', () => {
    assert.equal(
      jsessionIdOf(['JSESSIONIDSSO=1; Path=/', 'JSESSIONID=ABC123; Path=/vmrest; Secure']),
      'ABC123',
    );
    assert.equal(jsessionIdOf('JSESSIONID=DEF; HttpOnly'), 'DEF');
    assert.equal(jsessionIdOf(undefined), undefined);
    assert.equal(jsessionIdOf(['JSESSIONID=a b']), undefined);
    assert.equal(jsessionIdOf(['JSESSIONID=']), undefined);
  });
});
