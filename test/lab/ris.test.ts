import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { labNode, labTrustedPem } from '../../lab/index.ts';
import { call, startTestLab } from './helpers.ts';

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'item',
});

interface Device {
  Name: string;
  Status: string;
  StatusReason: string;
  DeviceClass: string;
}

function selectBody(
  op: string,
  stateInfo: string,
  max: number,
  items: string[] = ['*'],
  status = 'Any',
): string {
  const esc = stateInfo.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:soap="http://schemas.cisco.com/ast/soap"><soapenv:Body><soap:${op}><soap:StateInfo>${esc}</soap:StateInfo><soap:CmSelectionCriteria><soap:MaxReturnedDevices>${max}</soap:MaxReturnedDevices><soap:DeviceClass>Any</soap:DeviceClass><soap:Model>255</soap:Model><soap:Status>${status}</soap:Status><soap:NodeName></soap:NodeName><soap:SelectBy>Name</soap:SelectBy><soap:SelectItems>${items.map((i) => `<soap:item><soap:Item>${i}</soap:Item></soap:item>`).join('')}</soap:SelectItems><soap:Protocol>Any</soap:Protocol><soap:DownloadStatus>Any</soap:DownloadStatus></soap:CmSelectionCriteria></soap:${op}></soapenv:Body></soapenv:Envelope>`;
}

async function select(lab: Lab, body: string): Promise<{ status: number; text: string }> {
  const cucm = labNode(lab.info, 'cucm');
  assert.ok(cucm.urls.ris && cucm.credentials.axl);
  return call(cucm.urls.ris, {
    body,
    ca: labTrustedPem(lab.info),
    auth: cucm.credentials.axl,
    headers: { 'content-type': 'text/xml', soapaction: 'selectCmDevice' },
  });
}

function parse(text: string): {
  total: number;
  stateInfo: string;
  nodes: { name: string; devices: Device[] }[];
  raw: Record<string, unknown>;
} {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a parsed SOAP answer
  const response = (parser.parse(text) as any).Envelope.Body.selectCmDeviceResponse;
  const ret = response.selectCmDeviceReturn ?? response;
  const result = ret.SelectCmDeviceResult;
  return {
    total: Number(result.TotalDevicesFound),
    stateInfo: ret.StateInfo as string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    nodes: (result.CmNodes.item as any[]).map((n) => ({
      name: n.Name as string,
      devices: (n.CmDevices?.item ?? []) as Device[],
    })),
    raw: response,
  };
}

describe('RisPort70', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab({ extraPhones: 30, risMaxDevicesPerAnswer: 10, risRateLimitPerMinute: 200 });
  });
  after(() => lab.stop());

  it('serves its WSDL at ?wsdl', async () => {
    const cucm = labNode(lab.info, 'cucm');
    const wsdl = await call(`${cucm.urls.ris as string}?wsdl`, { ca: labTrustedPem(lab.info) });
    assert.equal(wsdl.status, 200);
    assert.match(wsdl.text, /targetNamespace="http:\/\/schemas\.cisco\.com\/ast\/soap"/);
    assert.match(wsdl.text, /<wsdl:operation name="selectCmDeviceExt">/);
    assert.match(wsdl.text, /name="selectCmDeviceReturn"/);
  });

  it('wraps the result in selectCmDeviceReturn (CUCM 15) and reports a device once per node', async () => {
    const answer = await select(lab, selectBody('selectCmDevice', '', 10, ['SEP0A1B2C3D4E0*', 'SIP_TO_SBC']));
    assert.equal(answer.status, 200, answer.text);
    const r = parse(answer.text);
    assert.ok(r.raw.selectCmDeviceReturn, 'CUCM 15 shape');
    assert.deepEqual(
      r.nodes.map((n) => n.name),
      ['cucm-pub', 'cucm-sub1'],
    );
    const all = r.nodes.flatMap((n) => n.devices.map((d) => ({ node: n.name, ...d })));
    const phone1 = all.filter((d) => d.Name === 'SEP0A1B2C3D4E01');
    assert.equal(phone1.length, 2, 'the same phone appears on both nodes: clients must de-duplicate');
    assert.deepEqual(phone1.map((d) => `${d.node}:${d.Status}:${d.StatusReason}`).sort(), [
      'cucm-pub:UnRegistered:9',
      'cucm-sub1:Registered:0',
    ]);
    assert.equal(all.filter((d) => d.Name === 'SIP_TO_SBC' && d.DeviceClass === 'SIPTrunk').length, 2);
    assert.equal(all.find((d) => d.Name === 'SEP0A1B2C3D4E04')?.StatusReason, '6');
    assert.equal(r.total, all.length);
  });

  it('pages with StateInfo, at most risMaxDevicesPerAnswer devices per answer', async () => {
    const seen: string[] = [];
    let stateInfo = '';
    let pages = 0;
    for (;;) {
      const answer = await select(lab, selectBody('selectCmDeviceExt', stateInfo, 1000, ['SEPF0*']));
      const r = parse(answer.text);
      const devices = r.nodes.flatMap((n) => n.devices.map((d) => `${n.name}/${d.Name}`));
      assert.ok(devices.length <= 10, `page of ${devices.length}`);
      assert.equal(r.total, devices.length);
      seen.push(...devices);
      stateInfo = r.stateInfo;
      pages++;
      if (devices.length < 10) break;
    }
    // 30 bulk phones, every tenth also reported (unregistered) by the other node.
    assert.equal(seen.length, 33);
    assert.equal(new Set(seen).size, 33, 'no record is served twice across pages');
    assert.equal(new Set(seen.map((s) => s.split('/')[1])).size, 30);
    assert.equal(pages, 4);
  });

  it('forgets a device removed from the database', async () => {
    const row = lab.state.cucm.db.table('device').findBy('name', 'SEPF00000000001');
    assert.ok(row);
    lab.state.cucm.db.delete('device', row);
    const r = parse((await select(lab, selectBody('selectCmDevice', '', 10, ['SEPF00000000001']))).text);
    assert.equal(r.total, 0);
  });
});

describe('RisPort70 rate limit and legacy shape', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab({ risRateLimitPerMinute: 3, risResponseShape: 'legacy' });
  });
  after(() => lab.stop());

  it('answers the AxisFault past the per-minute limit, keeping Cisco typo and the configured rate', async () => {
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 5; i++) {
      const a = await select(lab, selectBody('selectCmDevice', '', 5));
      statuses.push(a.status);
      last = a.text;
      if (i === 0)
        assert.ok(!parse(a.text).raw.selectCmDeviceReturn, 'legacy shape has no selectCmDeviceReturn');
    }
    assert.deepEqual(statuses, [200, 200, 200, 500, 500]);
    assert.match(
      last,
      /<faultstring>AxisFault: Exceeded allowed rate for Reatime information\. Current allowed rate for realtime information is 3 requests per minute\.<\/faultstring>/,
    );
    lab.state.cucm.ris.window.reset();
    assert.equal(
      (await select(lab, selectBody('selectCmDevice', '', 5))).status,
      200,
      'a new minute answers again',
    );
  });
});
