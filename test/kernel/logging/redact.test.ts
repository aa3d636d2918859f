import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redact, scrubText } from '../../../kernel/logging/redact.ts';

describe('redact', () => {
  it('masks values under secret-looking keys at any depth', () => {
    const out = redact({
      user: 'axladmin',
      password: 'p1',
      nested: { client_secret: 's', list: [{ token: 't' }] },
    });
    assert.deepEqual(out, {
      user: 'axladmin',
      password: REDACTED,
      nested: { client_secret: REDACTED, list: [{ token: REDACTED }] },
    });
  });

  it('scrubs secret-shaped text inside strings', () => {
    const cases: [string, string][] = [
      ['login failed password=hunter2 for x', 'hunter2'],
      ['Authorization: Bearer abc.def-ghi', 'abc.def-ghi'],
      ['Basic YWRtaW46c2VjcmV0', 'YWRtaW46c2VjcmV0'],
      ['token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl in a message', 'eyJhbGciOiJSUzI1NiJ9'],
      ['GET https://admin:s3cret@cucm.example/axl', 's3cret'],
      ['secret: "quoted value"', 'quoted value'],
    ];
    for (const [text, secret] of cases)
      assert.ok(!scrubText(text).includes(secret), `${text} -> ${scrubText(text)}`);
    assert.equal(scrubText('show version active'), 'show version active');
  });

  it('masks a login pasted before a host (no scheme), keeps the host, and keeps dates', () => {
    assert.equal(scrubText('axladmin:p@ss:w/rd@cucm-pub'), '[REDACTED]@cucm-pub');
    assert.equal(scrubText('login osadmin:hunter2@10.0.0.1 refused'), 'login [REDACTED]@10.0.0.1 refused');
    assert.equal(scrubText('GET https://admin:s3cret@cucm/axl'), 'GET https://[REDACTED]@cucm/axl');
    assert.equal(
      scrubText('ssh osadmin@cucm-pub port 22, at 12:30'),
      'ssh osadmin@cucm-pub port 22, at 12:30',
    );
    assert.deepEqual(redact({ host: 'DOMAIN\\admin:pass word@cucm-pub', cluster: 'cucm-pub' }), {
      host: '[REDACTED]@cucm-pub',
      cluster: 'cucm-pub',
    });
    const time = new Date();
    assert.equal((redact({ time }) as { time: unknown }).time, time);
  });

  it('serialises and scrubs errors, their stacks and causes', () => {
    const err = new Error('connect failed password=hunter2', { cause: new Error('token=abc123') });
    const out = JSON.stringify(redact({ err }));
    assert.ok(out.includes('connect failed'));
    assert.ok(!out.includes('hunter2') && !out.includes('abc123'), out);
  });
});
