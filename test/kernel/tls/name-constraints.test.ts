import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import forge from 'node-forge';
import {
  ipBytes,
  nameConstraintsExtension,
  permits,
  permittedFor,
  readPermitted,
} from '../../../kernel/tls/name-constraints.ts';

describe('name constraints', () => {
  it('reads IPv4 and IPv6 addresses as their octets', () => {
    assert.equal(ipBytes('127.0.0.1')?.toString('hex'), '7f000001');
    assert.equal(ipBytes('::1')?.toString('hex'), `${'0'.repeat(31)}1`);
    assert.equal(ipBytes('[::1]')?.toString('hex'), `${'0'.repeat(31)}1`);
    assert.equal(ipBytes('fd00::5')?.toString('hex'), `fd00${'0'.repeat(27)}5`);
    assert.equal(ipBytes('2001:db8:0:0:1:0:0:1')?.toString('hex'), '20010db8000000000001000000000001');
    assert.equal(ipBytes('::ffff:10.1.2.3')?.toString('hex'), `${'0'.repeat(20)}ffff0a010203`);
    assert.equal(ipBytes('1::')?.toString('hex'), `0001${'0'.repeat(28)}`);
    assert.equal(ipBytes('localhost'), null);
  });

  it('permits a DNS name, the names below it, and each address alone', () => {
    const p = permittedFor(['localhost', 'MCP.example.org', '*.wild.example', '127.0.0.1', '::1']);
    for (const ok of ['localhost', 'a.localhost', 'mcp.example.org', 'x.MCP.example.org', 'wild.example'])
      assert.ok(permits(p, ok), ok);
    for (const ok of ['127.0.0.1', '::1', '0:0:0:0:0:0:0:1']) assert.ok(permits(p, ok), ok);
    for (const no of ['evillocalhost', 'example.org', 'localhost.evil', '127.0.0.2', '::2', '10.0.0.1'])
      assert.equal(permits(p, no), false, no);
    // An IPv4 address is not inside an IPv6 range, nor the reverse.
    assert.equal(permits(permittedFor(['::ffff:127.0.0.1']), '127.0.0.1'), false);
  });

  it('writes DNS subtrees only: addresses get none, so they are unconstrained (RFC 5280)', () => {
    const ext = nameConstraintsExtension(['localhost', '127.0.0.1', '::1', 'localhost', '*.Wild.example']);
    assert.equal(ext.critical, true);
    assert.equal(ext.id, '2.5.29.30');
    const der = forge.asn1.toDer(ext.value).getBytes();
    const back = readPermitted(der);
    assert.deepEqual(back.dns, ['localhost', 'wild.example'], 'duplicates are written once');
    // BoringSSL (Claude Code's native build, Bun) refuses a CA with any iPAddress subtree: see the
    // top of name-constraints.ts. Writing them again must be a deliberate change, so it fails here.
    assert.deepEqual(back.ip, [], 'no iPAddress subtree is written');
    // The documented trade-off: DNS names stay bound, any address is inside.
    assert.equal(permits(back, 'evil.example.com'), false);
    assert.equal(permits(back, 'localhost.evil'), false);
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '10.0.0.1', 'fd00::6'])
      assert.equal(permits(back, address), true, address);
  });

  it('reads iPAddress subtrees from an extension that has them, and then constrains addresses', () => {
    // Built by hand (the server no longer writes these) so a CA from an older build, or a future
    // return to address constraints, is still read and checked correctly.
    const { asn1 } = forge;
    const seq = (v: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, v);
    const base = (tag: number, bytes: Buffer | string) =>
      seq([
        asn1.create(
          asn1.Class.CONTEXT_SPECIFIC,
          tag,
          false,
          typeof bytes === 'string' ? bytes : bytes.toString('binary'),
        ),
      ]);
    const v4 = ipBytes('127.0.0.1') as Buffer;
    const v6 = ipBytes('::1') as Buffer;
    const net = ipBytes('10.20.0.0') as Buffer;
    const ext = seq([
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
        base(2, 'localhost'),
        base(7, Buffer.concat([v4, Buffer.alloc(4, 0xff)])),
        base(7, Buffer.concat([v6, Buffer.alloc(16, 0xff)])),
        base(7, Buffer.concat([net, Buffer.from([255, 255, 0, 0])])),
      ]),
    ]);
    const back = readPermitted(asn1.toDer(ext).getBytes());
    assert.deepEqual(back.dns, ['localhost']);
    assert.deepEqual(
      back.ip.map((r) => `${r.address.toString('hex')}/${r.mask.toString('hex')}`),
      ['7f000001/ffffffff', `${'0'.repeat(31)}1/${'f'.repeat(32)}`, '0a140000/ffff0000'],
    );
    for (const ok of ['127.0.0.1', '::1', '10.20.3.4', 'localhost']) assert.ok(permits(back, ok), ok);
    for (const no of ['127.0.0.2', '::2', '10.21.0.1', '::ffff:127.0.0.1', 'evil.example'])
      assert.equal(permits(back, no), false, no);
    // A malformed address length is refused, not guessed at.
    const bad = seq([asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [base(7, Buffer.alloc(5))])]);
    assert.throws(() => readPermitted(asn1.toDer(bad).getBytes()), /GeneralName type 7/);
  });

  it('refuses an extension the server does not write (excluded subtrees, other name types)', () => {
    const { asn1 } = forge;
    const seq = (v: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, v);
    const tagged = (tag: number, v: forge.asn1.Asn1[]) =>
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, true, v);
    const dns = seq([asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, 'x.example')]);
    const email = seq([asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, false, 'a@x.example')]);
    const der = (v: forge.asn1.Asn1) => asn1.toDer(v).getBytes();
    assert.throws(() => readPermitted(der(seq([tagged(1, [dns])]))), /permittedSubtrees only/);
    assert.throws(() => readPermitted(der(seq([tagged(0, [dns]), tagged(1, [dns])]))), /shape/);
    assert.throws(() => readPermitted(der(seq([tagged(0, [email])]))), /GeneralName type 1/);
  });
});
