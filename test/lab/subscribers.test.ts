// Every node of a lab cluster answers its own serviceability APIs at its own HTTPS address: the
// subscribers (CUCM, IM&P) have their own listener, certificate and service table, so a service stopped
// on cucm-sub1 stays started on the publisher, and each node's PerfMon counts its own registrations.
// AXL stays the publisher's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab, LabNodeInfo } from '../../lab/index.ts';
import { labNode, labTlsPin, labTrustedPem } from '../../lab/index.ts';
import { CONTROL_CENTER_PATH } from '../../lab/serviceability/control-center/operations.ts';
import { PERFMON_PATH } from '../../lab/serviceability/perfmon/wsdl.ts';
import { call, soapEnvelope, startTestLab } from './helpers.ts';

const AST = 'http://schemas.cisco.com/ast/soap';

describe('lab subscribers serve their own serviceability APIs', () => {
  let lab: Lab;
  let pub: LabNodeInfo;
  let sub: LabNodeInfo;
  before(async () => {
    lab = await startTestLab();
    pub = labNode(lab.info, 'cucm');
    const subs = pub.subscribers ?? [];
    assert.deepEqual(
      subs.map((s) => s.name),
      lab.state.cucm.ris.nodes.filter((n) => n !== pub.name),
    );
    sub = subs[0] as LabNodeInfo;
  });
  after(async () => {
    await lab?.stop();
  });

  const soap = (
    node: LabNodeInfo,
    service: 'perfmon' | 'controlCenter',
    operation: string,
    inner: string,
  ): Promise<{ status: number; text: string }> =>
    call(`https://${node.address}${service === 'perfmon' ? PERFMON_PATH : CONTROL_CENTER_PATH}`, {
      body: soapEnvelope(operation, inner, AST),
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${operation}"` },
      ca: labTrustedPem(lab.info),
      auth: node.credentials.axl as { user: string; password: string },
    });

  const tftpStatus = async (node: LabNodeInfo): Promise<string | undefined> => {
    const r = await soap(
      node,
      'controlCenter',
      'soapGetServiceStatus',
      '<ns:ServiceStatus>Cisco Tftp</ns:ServiceStatus>',
    );
    assert.equal(r.status, 200, r.text);
    return /<ServiceStatus>([^<]+)</.exec(r.text.replace(/<(\/?)[a-zA-Z0-9]+:/g, '<$1'))?.[1];
  };

  it('each subscriber has its own address and certificate, pinned as the lab says', () => {
    assert.notEqual(sub.address, pub.address);
    assert.notEqual(sub.certFingerprint, pub.certFingerprint);
    assert.equal(sub.selfSigned, pub.selfSigned);
    assert.deepEqual(Object.keys(labTlsPin(lab.info, sub)), Object.keys(labTlsPin(lab.info, pub)));
    assert.ok(sub.credentials.axl);
    assert.equal(sub.ports.ssh, undefined, 'no CLI simulated on a subscriber');
    const imp = labNode(lab.info, 'imp');
    assert.deepEqual(
      (imp.subscribers ?? []).map((s) => s.name),
      ['imp-sub1'],
    );
  });

  it('a service stopped on the subscriber stays started on the publisher', async () => {
    assert.equal(await tftpStatus(sub), 'Started');
    const stop = await soap(
      sub,
      'controlCenter',
      'soapDoControlServices',
      `<ns:ControlServiceRequest><ns:NodeName>${sub.name}</ns:NodeName><ns:ControlType>Stop</ns:ControlType><ns:ServiceList><ns:item>Cisco Tftp</ns:item></ns:ServiceList></ns:ControlServiceRequest>`,
    );
    assert.equal(stop.status, 200, stop.text);
    assert.equal(await tftpStatus(sub), 'Stopped');
    assert.equal(await tftpStatus(pub), 'Started');
    // The request reached the subscriber's own listener, as the lab log records it.
    const last = lab.state.log.requests.filter((r) => r.service === 'serviceability').at(-3);
    assert.equal(last?.node, sub.name);
  });

  it('each node counts the phones registered to it in its own PerfMon', async () => {
    const count = async (node: LabNodeInfo): Promise<number> => {
      const r = await soap(
        node,
        'perfmon',
        'perfmonCollectCounterData',
        `<ns:Host>${node.name}</ns:Host><ns:Object>Cisco CallManager</ns:Object>`,
      );
      assert.equal(r.status, 200, r.text);
      const m = /RegisteredHardwarePhones<\/[a-zA-Z0-9:]*Name>\s*<[a-zA-Z0-9:]*Value>(\d+)</.exec(r.text);
      assert.ok(m, r.text.slice(0, 600));
      return Number(m[1]);
    };
    const expected = (node: string): number =>
      [...lab.state.cucm.ris.registrations].filter(
        ([name, list]) =>
          name.startsWith('SEP') && list.some((x) => x.node === node && x.status === 'Registered'),
      ).length;
    assert.equal(await count(sub), expected(sub.name));
    assert.equal(await count(pub), expected(pub.name));
    assert.ok(expected(sub.name) + expected(pub.name) > 0);
  });

  it('AXL is the publisher’s: a subscriber answers 404 there', async () => {
    const r = await call(`https://${sub.address}/axl/`, {
      method: 'POST',
      body: soapEnvelope('getCCMVersion', ''),
      headers: { 'content-type': 'text/xml', soapaction: '"CUCM:DB ver=15.0 getCCMVersion"' },
      ca: labTrustedPem(lab.info),
      auth: sub.credentials.axl as { user: string; password: string },
    });
    assert.equal(r.status, 404);
  });
});
