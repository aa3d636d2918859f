import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode, labTrustedPem } from '../../lab/index.ts';
import { axl, call, startTestLab } from './helpers.ts';
import { openCli } from './ssh-client.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (n) => n === 'row',
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed SOAP answers are walked by path
const body = (text: string): any => (parser.parse(text) as { Envelope: { Body: unknown } }).Envelope.Body;

async function sql(lab: Lab, query: string): Promise<Record<string, string>[]> {
  const r = await axl(lab, 'executeSQLQuery', `<sql><![CDATA[${query}]]></sql>`);
  assert.equal(r.status, 200, r.text);
  return (body(r.text).executeSQLQueryResponse.return?.row ?? []) as Record<string, string>[];
}

/** Days until the certificate the node actually serves expires, verified as a client of the lab pins it. */
function servedCertDays(lab: Lab, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca: labTrustedPem(lab.info) }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve((new Date(cert.valid_to).getTime() - Date.now()) / 86_400_000);
    });
    socket.on('error', reject);
  });
}

interface Observed {
  clusterSecurityMode: string;
  autoRegistration: string;
  trunkSecurityMode: string;
  lockoutAttempts: string;
  privilegedAppUsers: string[];
  tlsMin: string;
  fips: string;
  cucPinMinLength: string;
  tomcatDays: number;
}

async function observe(lab: Lab): Promise<Observed> {
  const [param] = await sql(
    lab,
    "select paramvalue from processconfig where paramname = 'ClusterSecurityMode'",
  );
  const cm = body((await axl(lab, 'getCallManager', '<name>CM_cucm-pub</name>')).text).getCallManagerResponse
    .return.callManager;
  const trunk = body((await axl(lab, 'getSipTrunk', '<name>SIP_TO_SBC</name>')).text).getSipTrunkResponse
    .return.sipTrunk;
  const profile = body(
    (
      await axl(
        lab,
        'getSipTrunkSecurityProfile',
        `<name>${trunk.securityProfileName['#text'] as string}</name>`,
      )
    ).text,
  ).getSipTrunkSecurityProfileResponse.return.sipTrunkSecurityProfile;
  const policy = body((await axl(lab, 'getCredentialPolicy', '<name>Default Credential Policy</name>')).text)
    .getCredentialPolicyResponse.return.credentialPolicy;
  const superGroup = (await sql(lab, "select pkid from dirgroup where name = 'Standard CCM Super Users'"))[0]
    ?.pkid as string;
  const members = await sql(
    lab,
    `select fkapplicationuser from applicationuserdirgroupmap where fkdirgroup = '${superGroup}'`,
  );
  const names = members
    .map((m) => lab.state.cucm.db.table('applicationuser').byPkid(m.fkapplicationuser)?.name ?? '')
    .filter((n) => n !== 'CCMAdministrator');
  const cli = await openCli(
    labNode(lab.info, 'cucm').ports.ssh as number,
    DEMO_CREDENTIALS.os.user,
    DEMO_CREDENTIALS.os.password,
  );
  const tlsMin =
    /Configured TLS minimum version: ([\d.]+)/.exec(await cli.run('show tls min-version'))?.[1] ?? '';
  const fips = (await cli.run('utils fips status')).includes('NON-FIPS') ? 'off' : 'on';
  cli.close();
  const cuc = labNode(lab.info, 'cuc');
  const policies = JSON.parse(
    (
      await call(
        `${cuc.urls.cupi as string}credentialpolicies?query=(displayname%20startswith%20Recommended%20Voice)`,
        {
          ca: labTrustedPem(lab.info),
          auth: cuc.credentials.cupi as { user: string; password: string },
          headers: { accept: 'application/json' },
        },
      )
    ).text,
  ) as { CredentialPolicy: { MinLength: string } };
  return {
    clusterSecurityMode: param?.paramvalue ?? '',
    autoRegistration: cm.autoRegistration.autoRegistrationEnabled,
    trunkSecurityMode: profile.securityMode,
    lockoutAttempts: policy.failedLogon,
    privilegedAppUsers: names,
    tlsMin,
    fips,
    cucPinMinLength: policies.CredentialPolicy.MinLength,
    tomcatDays: await servedCertDays(lab, labNode(lab.info, 'cucm').ports.https as number),
  };
}

describe('weak and hardened profiles', () => {
  let weak: Lab;
  let hardened: Lab;
  before(async () => {
    [weak, hardened] = await Promise.all([startTestLab(), startTestLab({ profile: 'hardened' })]);
  });
  after(() => Promise.all([weak.stop(), hardened.stop()]));

  it('seeds the weaknesses in weak and none of them in hardened', async () => {
    const w = await observe(weak);
    const h = await observe(hardened);
    assert.deepEqual(
      { ...w, tomcatDays: Math.round(w.tomcatDays) },
      {
        clusterSecurityMode: '0',
        autoRegistration: 'true',
        trunkSecurityMode: 'Non Secure',
        lockoutAttempts: '0',
        privilegedAppUsers: ['svc-integration'],
        tlsMin: '1.0',
        fips: 'off',
        cucPinMinLength: '4',
        tomcatDays: 10,
      },
    );
    assert.deepEqual(
      { ...h, tomcatDays: h.tomcatDays > 30 },
      {
        clusterSecurityMode: '1',
        autoRegistration: 'false',
        trunkSecurityMode: 'Encrypted',
        lockoutAttempts: '3',
        privilegedAppUsers: [],
        tlsMin: '1.2',
        fips: 'on',
        cucPinMinLength: '8',
        tomcatDays: true,
      },
    );
    const defaultPins = (lab: Lab): number =>
      [...lab.state.cuc.cupi.pins.values()].filter((p) => p.pin === '12345').length;
    assert.equal(defaultPins(weak), 3);
    assert.equal(defaultPins(hardened), 0);
    assert.equal(weak.info.profile, 'weak');
    assert.equal(hardened.info.profile, 'hardened');
  });

  it('accepts a TLS 1.0 handshake only in the weak profile, as show tls min-version says', async () => {
    const handshake = (lab: Lab): Promise<string> =>
      new Promise((resolve) => {
        const port = labNode(lab.info, 'cucm').ports.https as number;
        const options = {
          host: '127.0.0.1',
          port,
          ca: labTrustedPem(lab.info),
          minVersion: 'TLSv1' as const,
          maxVersion: 'TLSv1' as const,
          ciphers: 'DEFAULT:@SECLEVEL=0',
        };
        const socket = connect(options, () => {
          resolve(socket.getProtocol() ?? '');
          socket.end();
        });
        socket.on('error', () => resolve('refused'));
      });
    assert.equal(await handshake(weak), 'TLSv1');
    assert.equal(await handshake(hardened), 'refused');
  });

  it('keeps host keys and the CA across restarts of the same state directory', async () => {
    const again = await startTestLab({ profile: 'hardened' });
    try {
      assert.equal(again.info.caCertPem, hardened.info.caCertPem);
      assert.deepEqual(
        again.info.nodes.map((n) => n.sshHostKeyFingerprint),
        hardened.info.nodes.map((n) => n.sshHostKeyFingerprint),
      );
    } finally {
      await again.stop();
    }
  });
});
