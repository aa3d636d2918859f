import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { evaluateLicense, inspectLicense } from '../../../kernel/license/evaluate.ts';
import { issueLicense } from '../../../kernel/vendor/license.ts';
import { publisherKey, testKey } from '../integrity/fixture.ts';

const vendor = testKey('vendor');
const keys = [publisherKey(vendor)];
const HOST = 'cucm-mcp.example.net';
const EXP = Date.parse('2030-01-31T00:00:00Z');
const DAY = 86_400_000;

function license(over: Partial<Parameters<typeof issueLicense>[0]> = {}): Promise<string> {
  return issueLicense({
    privateKey: vendor.privateKey,
    publisher: 'vendor',
    customer: 'ACME Telecom',
    hostname: HOST,
    products: ['cucm', 'imp'],
    tier: 'enterprise',
    expiresAt: new Date(EXP),
    graceDays: 30,
    issuedAt: new Date(EXP - 365 * DAY),
    ...over,
  });
}

const b64url = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A JWS with any header and payload, PS512-signed by `key` (to get past the algorithm and key checks). */
async function rawLicense(
  payload: Record<string, unknown>,
  key = vendor.privateKey,
  kid = 'vendor',
): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'PS512', typ: 'license+jwt', kid }).sign(key);
}

const goodClaims = {
  sub: 'ACME',
  hostname: HOST,
  exp: EXP / 1000,
  grace_days: 30,
  products: ['cucm'],
  tier: 'standard',
};

describe('license evaluation', () => {
  it('VALID before exp, GRACE until exp + grace_days, EXPIRED after', async () => {
    const jwt = await license();
    const at = (ms: number) => evaluateLicense(jwt, keys, HOST, ms);
    const valid = await at(EXP - 1000);
    assert.deepEqual(valid, {
      state: 'VALID',
      tier: 'enterprise',
      expiresAt: '2030-01-31T00:00:00.000Z',
      products: ['cucm', 'imp'],
      reason: 'valid until 2030-01-31T00:00:00.000Z',
    });
    assert.equal((await at(EXP)).state, 'GRACE', 'exp itself is past expiry (RFC 7519)');
    const grace = await at(EXP + 29 * DAY);
    assert.equal(grace.state, 'GRACE');
    assert.deepEqual(grace.products, ['cucm', 'imp'], 'products keep working in GRACE');
    assert.match(grace.reason, /grace period until 2030-03-02/);
    const expired = await at(EXP + 30 * DAY);
    assert.equal(expired.state, 'EXPIRED');
    assert.deepEqual(expired.products, []);
    assert.equal(expired.expiresAt, '2030-01-31T00:00:00.000Z');
  });

  it('a license without grace days goes straight from VALID to EXPIRED', async () => {
    const jwt = await license({ graceDays: 0 });
    assert.equal((await evaluateLicense(jwt, keys, HOST, EXP - 1)).state, 'VALID');
    assert.equal((await evaluateLicense(jwt, keys, HOST, EXP)).state, 'EXPIRED');
  });

  it('the hostname compares case-insensitively; another host is INVALID', async () => {
    const jwt = await license();
    assert.equal((await evaluateLicense(jwt, keys, 'CUCM-MCP.Example.NET.', EXP - DAY)).state, 'VALID');
    const ev = await inspectLicense(jwt, keys, 'other-host', EXP - DAY);
    assert.equal(ev.status.state, 'INVALID');
    assert.match(ev.status.reason, /bound to host "cucm-mcp.example.net", not this host/);
    assert.equal(ev.signature, 'valid');
    assert.equal(ev.hostnameMatches, false);
  });

  it('a two-host license is VALID on each named host and INVALID on a third', async () => {
    const jwt = await license({ hostname: ['ucmcp-1', 'ucmcp-2'] });
    for (const host of ['ucmcp-1', 'UCMCP-2.']) {
      const ev = await inspectLicense(jwt, keys, host, EXP - DAY);
      assert.equal(ev.status.state, 'VALID', `${host}: ${ev.status.reason}`);
      assert.equal(ev.hostnameMatches, true);
    }
    const ev = await inspectLicense(jwt, keys, 'ucmcp-3', EXP - DAY);
    assert.equal(ev.status.state, 'INVALID');
    assert.equal(ev.status.reason, 'license is bound to hosts "ucmcp-1", "ucmcp-2", not this host');
    assert.equal(ev.hostnameMatches, false);
    assert.equal(ev.claims?.hostname, 'ucmcp-1', 'an older server reads the first host');
    assert.deepEqual(ev.claims?.hostnames, ['ucmcp-1', 'ucmcp-2']);
  });

  it('a one-host license carries no hostnames claim; an older server reads a multi-host one for its first host', async () => {
    const one = await inspectLicense(await license(), keys, HOST, EXP - DAY);
    assert.equal(one.claims?.hostnames, undefined);
    const multi = { ...goodClaims, hostname: 'ucmcp-1', hostnames: ['ucmcp-1', 'ucmcp-2'] };
    assert.equal((await evaluateLicense(await rawLicense(multi), keys, 'ucmcp-2', EXP - DAY)).state, 'VALID');
    // A server that predates `hostnames` strips it as an unknown claim (its schema is .strip()), so what
    // it decides on is these claims without it: licensed on the first host, INVALID on the others.
    const { hostnames: _dropped, ...older } = multi;
    const seenByOlder = await rawLicense(older);
    assert.equal((await evaluateLicense(seenByOlder, keys, 'ucmcp-1', EXP - DAY)).state, 'VALID');
    assert.match(
      (await evaluateLicense(seenByOlder, keys, 'ucmcp-2', EXP - DAY)).reason,
      /bound to host "ucmcp-1", not this host/,
    );
  });

  it('INVALID: hostnames empty, too many, repeated, too long, or without hostname', async () => {
    const many = Array.from({ length: 65 }, (_, i) => `h${i}`);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...goodClaims, hostnames: [] }, /hostnames/],
      [{ ...goodClaims, hostname: 'h0', hostnames: many }, /hostnames/],
      [{ ...goodClaims, hostnames: [HOST, HOST.toUpperCase()] }, /hostnames must not repeat/],
      [{ ...goodClaims, hostnames: [HOST, 'x'.repeat(254)] }, /hostnames/],
      [{ ...goodClaims, hostnames: [HOST, ''] }, /hostnames/],
      [{ ...goodClaims, hostnames: 'ucmcp-1,ucmcp-2' }, /hostnames/],
      [{ ...goodClaims, hostnames: ['ucmcp-1', 'ucmcp-2'] }, /hostnames must include hostname/],
    ];
    for (const [claims, reason] of cases) {
      const status = await evaluateLicense(await rawLicense(claims), keys, HOST, EXP - DAY);
      assert.equal(status.state, 'INVALID', JSON.stringify(claims).slice(0, 200));
      assert.match(status.reason, reason);
    }
    const most = Array.from({ length: 64 }, (_, i) => (i === 0 ? HOST : `h${i}.example.net`));
    const ok = await rawLicense({ ...goodClaims, hostnames: most });
    assert.equal((await evaluateLicense(ok, keys, 'h63.example.net', EXP - DAY)).state, 'VALID');
    const far = await inspectLicense(ok, keys, 'elsewhere', EXP - DAY);
    assert.match(
      far.status.reason,
      /^license is bound to hosts "cucm-mcp.example.net", .*, and 56 more, not this host$/,
    );
  });

  it("INVALID: signed by the attacker's key, by an unknown publisher, or nobody trusted", async () => {
    const attacker = testKey('attacker');
    const forged = await license({ privateKey: attacker.privateKey });
    let ev = await inspectLicense(forged, keys, HOST, EXP - DAY);
    assert.equal(ev.status.state, 'INVALID');
    assert.equal(ev.signature, 'bad-signature');

    const stranger = await license({ privateKey: attacker.privateKey, publisher: 'attacker' });
    ev = await inspectLicense(stranger, keys, HOST, EXP - DAY);
    assert.equal(ev.signature, 'unknown-key');
    assert.match(ev.status.reason, /"attacker" is not a trusted publisher/);

    ev = await inspectLicense(await license(), [], HOST, EXP - DAY);
    assert.equal(ev.signature, 'unknown-key');
    assert.match(ev.status.reason, /no trusted publisher key/);
  });

  it('INVALID: alg none, HMAC with the public key as secret, RS512, wrong typ', async () => {
    const claims = b64url(goodClaims);
    const none = `${b64url({ alg: 'none', typ: 'license+jwt', kid: 'vendor' })}.${claims}.`;
    let ev = await inspectLicense(none, keys, HOST, EXP - DAY);
    assert.equal(ev.signature, 'bad-algorithm');
    assert.equal(ev.status.state, 'INVALID');

    const hsHeader = b64url({ alg: 'HS256', typ: 'license+jwt', kid: 'vendor' });
    const mac = createHmac('sha256', vendor.publicPem).update(`${hsHeader}.${claims}`).digest('base64url');
    ev = await inspectLicense(`${hsHeader}.${claims}.${mac}`, keys, HOST, EXP - DAY);
    assert.equal(ev.signature, 'bad-algorithm');

    const rs = await new SignJWT(goodClaims)
      .setProtectedHeader({ alg: 'RS512', typ: 'license+jwt', kid: 'vendor' })
      .sign(vendor.privateKey);
    ev = await inspectLicense(rs, keys, HOST, EXP - DAY);
    assert.equal(ev.signature, 'bad-algorithm');
    assert.match(ev.status.reason, /RS512 is not accepted \(PS512 only\)/);

    const typ = await new SignJWT(goodClaims)
      .setProtectedHeader({ alg: 'PS512', typ: 'at+jwt', kid: 'vendor' })
      .sign(vendor.privateKey);
    assert.equal((await evaluateLicense(typ, keys, HOST, EXP - DAY)).state, 'INVALID');
  });

  it('INVALID: missing file, malformed text, tampered payload', async () => {
    assert.deepEqual(await evaluateLicense(null, keys, HOST, EXP - DAY), {
      state: 'INVALID',
      tier: null,
      expiresAt: null,
      products: [],
      reason: 'no license file',
    });
    for (const text of ['', 'garbage', 'a.b.c', 'x'.repeat(70_000)])
      assert.equal((await evaluateLicense(text, keys, HOST, EXP - DAY)).state, 'INVALID', text.slice(0, 10));

    const [h, , s] = (await license()).split('.');
    const richer = b64url({ ...goodClaims, products: ['cucm', 'imp', 'cuc'] });
    const ev = await inspectLicense(`${h}.${richer}.${s}`, keys, HOST, EXP - DAY);
    assert.equal(ev.signature, 'bad-signature');
    assert.deepEqual(ev.unverifiedClaims?.products, ['cucm', 'imp', 'cuc'], 'shown, never trusted');
    assert.equal(ev.claims, undefined);
  });

  it('INVALID: unknown products, missing or wrong claims, issuer not the signer, not yet valid', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...goodClaims, products: ['cucm', 'webex'] }, /products/],
      [{ ...goodClaims, products: [] }, /products/],
      [{ ...goodClaims, products: ['cucm', 'cucm'] }, /repeat/],
      [{ ...goodClaims, grace_days: undefined }, /grace_days/],
      [{ ...goodClaims, grace_days: -1 }, /grace_days/],
      [{ ...goodClaims, hostname: undefined }, /hostname/],
      [{ ...goodClaims, exp: 'tomorrow' }, /exp/],
      [{ ...goodClaims, tier: 'Gold Plus' }, /tier/],
      [{ ...goodClaims, sub: '' }, /sub/],
      [{ ...goodClaims, iss: 'someone-else' }, /issuer "someone-else" is not its signer "vendor"/],
      [{ ...goodClaims, nbf: (EXP - DAY) / 1000 + 3600 }, /not valid before/],
    ];
    for (const [claims, reason] of cases) {
      const status = await evaluateLicense(await rawLicense(claims), keys, HOST, EXP - DAY);
      assert.equal(status.state, 'INVALID', JSON.stringify(claims));
      assert.match(status.reason, reason);
    }
    const extra = await rawLicense({ ...goodClaims, seats: 50 });
    assert.equal(
      (await evaluateLicense(extra, keys, HOST, EXP - DAY)).state,
      'VALID',
      'unknown claims are ignored',
    );
  });

  it('the evaluation names the signer and the dates for license_checker', async () => {
    const ev = await inspectLicense(await license(), keys, HOST, EXP - DAY);
    assert.equal(ev.publisher, 'vendor');
    assert.equal(ev.fingerprint, keys[0]?.fingerprint);
    assert.equal(ev.claims?.sub, 'ACME Telecom');
    assert.equal(ev.graceEndsAt, new Date(EXP + 30 * DAY).toISOString());
    assert.equal(ev.issuedAt, new Date(EXP - 365 * DAY).toISOString());
    assert.deepEqual(ev.header, { alg: 'PS512', kid: 'vendor', typ: 'license+jwt' });
  });
});
