import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import forge from 'node-forge';
import { command } from '../../../kernel/cli/commands/certificate-generate-csr.ts';
import { captureIo, type CapturedIo } from '../../helpers/cli-io.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { ipBytes } from '../../../kernel/tls/csr.ts';
import { generateSelfSigned } from '../../helpers/self-signed.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const { asn1 } = forge;

function testIo(stateDir: string, env: Record<string, string> = {}): CapturedIo {
  return captureIo({ STATE_DIR: stateDir, ...env }, stateDir);
}

interface ParsedCsr {
  subject: Map<string, string>;
  sans: { type: 'dns' | 'ip'; value: string }[];
  publicKey: KeyObject;
  /** The signature verifies with the request's own public key. */
  selfSigned: boolean;
  signatureOid: string;
}

/**
 * Reads a PKCS#10 request with forge's ASN.1 decoder and checks its signature with node:crypto, so
 * RSA, EC and Ed25519 requests are all verified the same way (forge itself verifies RSA only).
 */
function parseCsr(pem: string): ParsedCsr {
  const b64 = pem.replace(/-----(BEGIN|END) CERTIFICATE REQUEST-----|\s/g, '');
  // decodeBitStrings off: an ECDSA signature is itself DER and forge would otherwise parse it. forge
  // takes this options object; its type declarations only know the older boolean `strict` argument.
  const fromDer = asn1.fromDer as unknown as (
    bytes: string,
    options: { decodeBitStrings: boolean },
  ) => forge.asn1.Asn1;
  const root = fromDer(Buffer.from(b64, 'base64').toString('binary'), { decodeBitStrings: false });
  const [info, algId, sigBits] = root.value as forge.asn1.Asn1[];
  const [, subjectSeq, spki, attrs] = (info as forge.asn1.Asn1).value as forge.asn1.Asn1[];
  const der = (n: forge.asn1.Asn1): Buffer => Buffer.from(asn1.toDer(n).getBytes(), 'binary');
  const publicKey = createPublicKey({ key: der(spki as forge.asn1.Asn1), format: 'der', type: 'spki' });

  const subject = new Map<string, string>();
  for (const rdn of (subjectSeq as forge.asn1.Asn1).value as forge.asn1.Asn1[]) {
    const [oid, value] = ((rdn.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1).value as forge.asn1.Asn1[];
    subject.set(
      asn1.derToOid((oid as forge.asn1.Asn1).value as string),
      forge.util.decodeUtf8((value as forge.asn1.Asn1).value as string),
    );
  }

  const sans: ParsedCsr['sans'] = [];
  for (const attr of (attrs as forge.asn1.Asn1).value as forge.asn1.Asn1[]) {
    const [oid, set] = attr.value as forge.asn1.Asn1[];
    if (asn1.derToOid((oid as forge.asn1.Asn1).value as string) !== '1.2.840.113549.1.9.14') continue;
    const extensions = ((set as forge.asn1.Asn1).value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
    for (const ext of extensions.value as forge.asn1.Asn1[]) {
      const [extOid, octets] = ext.value as forge.asn1.Asn1[];
      if (asn1.derToOid((extOid as forge.asn1.Asn1).value as string) !== '2.5.29.17') continue;
      const names = asn1.fromDer((octets as forge.asn1.Asn1).value as string);
      for (const n of names.value as forge.asn1.Asn1[]) {
        const raw = n.value as string;
        if (n.type === 2) sans.push({ type: 'dns', value: raw });
        if (n.type === 7) sans.push({ type: 'ip', value: Buffer.from(raw, 'binary').toString('hex') });
      }
    }
  }

  const signatureOid = asn1.derToOid(
    ((algId as forge.asn1.Asn1).value as forge.asn1.Asn1[])[0]?.value as string,
  );
  const hash = { '1.2.840.113549.1.1.11': 'sha256', '1.2.840.10045.4.3.2': 'sha256', '1.3.101.112': null }[
    signatureOid
  ];
  assert.notEqual(hash, undefined, `unexpected signature algorithm ${signatureOid}`);
  const signature = Buffer.from(((sigBits as forge.asn1.Asn1).value as string).slice(1), 'binary');
  const selfSigned = verify(hash ?? null, der(info as forge.asn1.Asn1), publicKey, signature);
  return { subject, sans, publicKey, selfSigned, signatureOid };
}

const spkiOf = (k: KeyObject): string => k.export({ type: 'spki', format: 'der' }).toString('hex');
const CN_OID = '2.5.4.3';
const O_OID = '2.5.4.10';

describe('certificate_generate_csr', () => {
  const state = tempStateDir('ucmcp-csr-');
  after(() => state.cleanup());

  it('creates a key (0600) when there is none and writes a signed request with every SAN', async () => {
    const io = testIo(state.dir);
    const code = await runCommandWith(
      command,
      [
        '--cn',
        'uc.example.com',
        '--san',
        'alt.example.com,10.0.0.5,2001:db8::1',
        '--org',
        'Example Ltd',
        '--out',
        'uc.csr',
      ],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const keyPath = join(state.dir, 'secrets', 'tls_csr_key.pem');
    assert.equal(statSync(keyPath).mode & 0o777, 0o600);
    assert.ok(
      !existsSync(join(state.dir, 'secrets', 'tls_key.pem')),
      'the self-signed slot is never created',
    );

    const csr = parseCsr(readFileSync(join(state.dir, 'uc.csr'), 'utf8'));
    assert.ok(csr.selfSigned, 'the request signature verifies');
    assert.equal(csr.signatureOid, '1.2.840.113549.1.1.11');
    assert.equal(csr.subject.get(CN_OID), 'uc.example.com');
    assert.equal(csr.subject.get(O_OID), 'Example Ltd');
    assert.deepEqual(csr.sans, [
      { type: 'dns', value: 'uc.example.com' },
      { type: 'dns', value: 'alt.example.com' },
      { type: 'ip', value: '0a000005' },
      { type: 'ip', value: ipBytes('2001:db8::1').toString('hex') },
    ]);
    assert.equal(spkiOf(csr.publicKey), spkiOf(createPublicKey(readFileSync(keyPath))));
    assert.doesNotMatch(io.stdout + io.stderr, /PRIVATE KEY/, 'the key is never printed');
  });

  it('reuses that key on the next run and prints the request when there is no --out', async () => {
    const before = readFileSync(join(state.dir, 'secrets', 'tls_csr_key.pem'), 'utf8');
    const io = testIo(state.dir);
    assert.equal(await runCommandWith(command, ['--cn', 'uc.example.com', '--san', '192.0.2.7'], io), 0);
    assert.match(io.stderr, /reused/);
    assert.equal(readFileSync(join(state.dir, 'secrets', 'tls_csr_key.pem'), 'utf8'), before);
    const csr = parseCsr(io.stdout);
    assert.equal(spkiOf(csr.publicKey), spkiOf(createPublicKey(before)));
    assert.deepEqual(
      csr.sans.map((s) => s.value),
      ['uc.example.com', 'c0000207'],
    );
  });

  it("reuses the self-signed certificate's key when that is the installation's TLS key", async () => {
    const other = tempStateDir('ucmcp-csr-');
    try {
      const pair = generateSelfSigned(['localhost'], 30, 'test');
      mkdirSync(join(other.dir, 'secrets'), { recursive: true });
      writeFileSync(join(other.dir, 'secrets', 'tls_key.pem'), pair.keyPem, { mode: 0o600 });
      writeFileSync(join(other.dir, 'secrets', 'tls_cert.pem'), pair.certPem);
      const io = testIo(other.dir);
      assert.equal(await runCommandWith(command, ['--cn', 'uc.example.com'], io), 0, io.stderr);
      assert.equal(spkiOf(parseCsr(io.stdout).publicKey), spkiOf(createPublicKey(pair.keyPem)));
      assert.ok(!existsSync(join(other.dir, 'secrets', 'tls_csr_key.pem')));
    } finally {
      other.cleanup();
    }
  });

  it('reuses the configured TLS_KEY_FILE, an EC key included', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const keyFile = join(state.dir, 'operator-ec.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(
      join(state.dir, '.env'),
      `TLS_KEY_FILE=${keyFile}\nTLS_CERT_FILE=${join(state.dir, 'signed.pem')}\n`,
    );
    try {
      const io = testIo(state.dir);
      assert.equal(
        await runCommandWith(command, ['--cn', 'uc.example.com', '--san', 'uc2.example.com'], io),
        0,
      );
      const csr = parseCsr(io.stdout);
      assert.ok(csr.selfSigned);
      assert.equal(csr.signatureOid, '1.2.840.10045.4.3.2');
      assert.equal(spkiOf(csr.publicKey), spkiOf(createPublicKey(privateKey)));
    } finally {
      writeFileSync(join(state.dir, '.env'), '');
    }
  });

  it('creates the key at --key when that file does not exist yet', async () => {
    const io = testIo(state.dir);
    assert.equal(await runCommandWith(command, ['--cn', 'uc.example.com', '--key', 'keys/new.pem'], io), 0);
    const keyPath = join(state.dir, 'keys', 'new.pem');
    assert.equal(statSync(keyPath).mode & 0o777, 0o600);
    assert.equal(
      spkiOf(parseCsr(io.stdout).publicKey),
      spkiOf(createPublicKey(createPrivateKey(readFileSync(keyPath)))),
    );
  });

  it('refuses bad usage without writing anything', async () => {
    const fresh = tempStateDir('ucmcp-csr-');
    try {
      for (const argv of [
        ['--san', 'uc.example.com'],
        ['--cn', 'uc.example.com', '--san', 'not a host!'],
        ['--cn', 'UC MCP server'],
        ['--cn', 'uc.example.com', '--country', 'France'],
      ]) {
        const io = testIo(fresh.dir);
        assert.equal(await runCommandWith(command, argv, io), 2, argv.join(' '));
      }
      assert.ok(!existsSync(join(fresh.dir, 'secrets')), 'no key was generated');
    } finally {
      fresh.cleanup();
    }
  });
});
