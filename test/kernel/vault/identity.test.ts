import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialError } from '../../../kernel/errors/index.ts';
import { checkClientName, checkKind, normaliseHost, parseSlotKey } from '../../../kernel/vault/identity.ts';

describe('vault identities', () => {
  it('normalises hosts: lower case, optional port, compressed IPv6', () => {
    const cases: [string, string][] = [
      ['CUCM-Pub.Example.COM', 'cucm-pub.example.com'],
      ['cucm1:8443', 'cucm1:8443'],
      ['10.1.2.3', '10.1.2.3'],
      ['10.1.2.3:22', '10.1.2.3:22'],
      ['[2001:DB8:0:0::1]', '[2001:db8::1]'],
      ['[::1]:2222', '[::1]:2222'],
      ['lab_node-1.local', 'lab_node-1.local'],
    ];
    for (const [input, expected] of cases) assert.equal(normaliseHost(input), expected, input);
  });

  it('refuses hosts that could smuggle a user, a path or a second host, without echoing them', () => {
    const bad = [
      '',
      'admin:s3cret-canary@cucm1',
      'cucm1/axl',
      'cucm1 ',
      'cu cm1',
      'cucm1:0',
      'cucm1:65536',
      'cucm1:08443',
      'cucm1:port',
      '::1',
      '[::1',
      '[fe80::1%eth0]',
      '10.1.2',
      '999.1.1.1',
      '-cucm',
      'cucm..example',
      'a'.repeat(64),
      `${'a.'.repeat(130)}com`,
      'cucm1?x',
      'cucm1#x',
      'cucm1\\x',
      'cucm1\n',
    ];
    for (const h of bad) {
      assert.throws(
        () => normaliseHost(h),
        (err: unknown) =>
          err instanceof CredentialError && err.status === 400 && !err.message.includes('s3cret-canary'),
        JSON.stringify(h),
      );
    }
    assert.throws(() => normaliseHost(42), CredentialError);
  });

  it('allows only the kinds the spec gives each product', () => {
    assert.equal(checkKind('cucm', 'axl'), 'axl');
    assert.equal(checkKind('cucm', 'phone'), 'phone');
    assert.equal(checkKind('imp', 'os'), 'os');
    assert.equal(checkKind('cuc', 'cupi'), 'cupi');
    for (const [p, k] of [
      ['cuc', 'axl'],
      ['cucm', 'cupi'],
      ['imp', 'phone'],
      ['imp', 'cupi'],
      ['cuc', 'phone'],
      ['cucm', 'ssh'],
    ] as const) {
      assert.throws(() => checkKind(p, k), CredentialError, `${p}/${k}`);
    }
  });

  it('accepts client names that are safe directory names only', () => {
    for (const ok of ['noc-agent', 'auditor1', 'A.b_c']) assert.equal(checkClientName(ok), ok);
    for (const bad of ['', '.', '..', '../x', 'a/b', '.hidden', 'x'.repeat(65), 'a b']) {
      assert.throws(() => checkClientName(bad), CredentialError, bad);
    }
  });

  it('parses record keys back only when they are well formed', () => {
    assert.deepEqual(parseSlotKey('cucm/axl/cucm1:8443'), {
      product: 'cucm',
      kind: 'axl',
      host: 'cucm1:8443',
    });
    for (const bad of ['cucm/axl', 'cucm/cupi/h', 'x/axl/h', 'cucm/axl/H', 'cucm/axl/h/x']) {
      assert.equal(parseSlotKey(bad), null, bad);
    }
  });
});
