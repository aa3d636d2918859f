// The secrets VOS CLI commands print are replaced line for line, whatever the layout, and only in the
// output of the commands that print them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureText } from '../../../../plugins/_shared/vos/cli-output.ts';
import {
  printsSecrets,
  redactSecretOutput,
  SECRET_MARKER,
} from '../../../../plugins/_shared/vos/secret-output.ts';

const COMMUNITIES = 'utils snmp config 1/2c community-string list';
const LAB_LIST = [
  '1)',
  'Community String = Zq7-secret-ro',
  'Access Privileges = ReadOnly',
  'Host IP Addresses = All',
  '',
  '2)',
  'Community String = second:rw',
  'Access Privileges = ReadWrite',
  'Host IP Addresses = 10.0.0.5',
].join('\n');

describe('secrets in VOS CLI output', () => {
  it('replaces each community string, keeping every line, label and the other fields', () => {
    const out = redactSecretOutput(COMMUNITIES, LAB_LIST);
    assert.doesNotMatch(out, /Zq7-secret-ro|second:rw/);
    assert.equal(out.split('\n').length, LAB_LIST.split('\n').length);
    assert.equal(out.split('\n').filter((l) => l === `Community String = ${SECRET_MARKER}`).length, 2);
    assert.match(out, /^Access Privileges = ReadWrite$/m);
    assert.match(out, /^Host IP Addresses = 10\.0\.0\.5$/m);
  });

  it('fails closed on layouts nobody published: a bare value, an unknown label, a table row', () => {
    const layouts = [
      '1) Zq7-secret-ro ReadOnly All',
      'Zq7-secret-ro',
      'Zq7-secret-ro : ReadOnly',
      'Community Name      : Zq7-secret-ro',
      '   community: Zq7-secret-ro',
    ];
    for (const layout of layouts) {
      const out = redactSecretOutput(COMMUNITIES, layout);
      assert.doesNotMatch(out, /Zq7/, layout);
      assert.match(out, new RegExp(SECRET_MARKER.replace(/[<>]/g, '\\$&')), layout);
    }
    for (const trap of ['utils snmp config 1/2c trap list', 'utils snmp config 1/2c inform list'])
      assert.doesNotMatch(redactSecretOutput(trap, 'Host IP = 10.0.0.9\nZq7-secret-ro\n'), /Zq7/);
  });

  it('keeps the notices, numbering and failure lines a reader needs', () => {
    for (const line of [
      'There are no community strings configured.',
      'Executed command unsuccessfully',
      'No valid command entered',
    ])
      assert.equal(redactSecretOutput(COMMUNITIES, line), line);
  });

  it("leaves no secret in the failure text an error quotes (the node's last lines)", () => {
    const redacted = redactSecretOutput(
      COMMUNITIES,
      'Community String = Zq7-secret-ro\nZq7-secret-ro\nExecuted command unsuccessfully',
    );
    const failure = failureText(redacted) ?? '';
    assert.match(failure, /Executed command unsuccessfully/);
    assert.doesNotMatch(failure, /Zq7/);
  });

  it('recognises the command however it is typed (case, spacing, abbreviated words)', () => {
    for (const cmd of [
      COMMUNITIES,
      'UTILS SNMP CONFIG 1/2c COMMUNITY-STRING LIST',
      '  utils   snmp config 1/2c   community-string list ',
      'ut sn conf 1/2c comm list',
    ]) {
      assert.ok(printsSecrets(cmd), cmd);
      assert.doesNotMatch(redactSecretOutput(cmd, LAB_LIST), /Zq7/, cmd);
    }
  });

  it('removes SNMPv3 passphrases but keeps the user and its protocols', () => {
    const out = redactSecretOutput(
      'utils snmp config 3 user list',
      'Username = nms\nAuthentication Protocol = SHA\nAuthentication Password = Kp-9x\nPrivacy Protocol = AES128\nPrivacy Passphrase: Pr-1y\nOddField = Zq7',
    );
    assert.match(out, /^Username = nms$/m);
    assert.match(out, /^Authentication Protocol = SHA$/m);
    assert.match(out, /^Privacy Protocol = AES128$/m);
    assert.doesNotMatch(out, /Kp-9x|Pr-1y|Zq7/);
  });

  it('names a pre-shared key of show ipsec, and leaves other commands untouched', () => {
    assert.doesNotMatch(
      redactSecretOutput('show ipsec information grp pol', 'Policy Name: pol\nPre-shared Key: Zq7'),
      /Zq7/,
    );
    const text = 'Community String = not-a-secret-here\nPassword: shown as printed';
    for (const cmd of ['show version active', 'utils service list', 'show myself', 'run sql select 1'])
      assert.equal(redactSecretOutput(cmd, text), text, cmd);
    assert.equal(printsSecrets('show version active'), false);
  });
});
