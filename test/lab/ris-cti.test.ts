// The lab's RisPort70 selectCtiItem: Provider, Device and Line classes, the criteria, paging with
// StateInfo, and its element names against Cisco's RISService70.wsdl (../shared/fixtures; the check
// skips with a reason where the fixture is absent).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { labNode, labTrustedPem } from '../../lab/index.ts';
import { call, fixture, startTestLab } from './helpers.ts';

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'item' || name === 'element' || name === 'complexType',
});

interface Item {
  AppId: string;
  UserId: string;
  AppStatus: string;
  CtiDevice?: { DeviceName: string; DeviceStatus: string } | '';
  CtiLine?: { DirNumber: string; LineStatus: string } | '';
}

function ctiBody(
  stateInfo: string,
  c: {
    max?: number;
    cls?: string;
    status?: string;
    node?: string;
    by?: string;
    apps?: string[];
    devs?: string[];
    dns?: string[];
  },
): string {
  const esc = stateInfo.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const list = (outer: string, inner: string, values: string[] = []): string =>
    `<soap:${outer}>${values.map((v) => `<soap:item><soap:${inner}>${v}</soap:${inner}></soap:item>`).join('')}</soap:${outer}>`;
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:soap="http://schemas.cisco.com/ast/soap"><soapenv:Body><soap:selectCtiItem><soap:StateInfo>${esc}</soap:StateInfo><soap:CtiSelectionCriteria><soap:MaxReturnedItems>${c.max ?? 1000}</soap:MaxReturnedItems><soap:CtiMgrClass>${c.cls ?? 'Provider'}</soap:CtiMgrClass><soap:Status>${c.status ?? 'Any'}</soap:Status><soap:NodeName>${c.node ?? ''}</soap:NodeName><soap:SelectAppBy>${c.by ?? 'AppId'}</soap:SelectAppBy>${list('AppItems', 'AppItem', c.apps)}${list('DevNames', 'DevName', c.devs)}${list('DirNumbers', 'DirNumber', c.dns)}</soap:CtiSelectionCriteria></soap:selectCtiItem></soapenv:Body></soapenv:Envelope>`;
}

describe('RisPort70 selectCtiItem', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.stop());

  async function select(
    body: string,
  ): Promise<{ total: number; stateInfo: string; nodes: Map<string, { code: string; items: Item[] }> }> {
    const cucm = labNode(lab.info, 'cucm');
    assert.ok(cucm.urls.ris && cucm.credentials.axl);
    const r = await call(cucm.urls.ris, {
      body,
      ca: labTrustedPem(lab.info),
      auth: cucm.credentials.axl,
      headers: { 'content-type': 'text/xml', soapaction: 'selectCtiItem' },
    });
    assert.equal(r.status, 200, r.text);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a parsed SOAP answer
    const response = (parser.parse(r.text) as any).Envelope.Body.selectCtiItemResponse;
    const ret = response.selectCtiItemReturn;
    const result = ret.SelectCtiItemResult;
    return {
      total: Number(result.TotalItemsFound),
      stateInfo: ret.StateInfo as string,
      nodes: new Map(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        (result.CtiNodes.item as any[]).map((n) => [
          n.Name as string,
          { code: n.ReturnCode as string, items: (n.CtiItems?.item ?? []) as Item[] },
        ]),
      ),
    };
  }

  it('lists CTI providers per node: the users controlling their phones from Jabber', async () => {
    const a = await select(ctiBody('', {}));
    assert.equal(a.total, 2);
    assert.deepEqual(
      a.nodes.get('cucm-pub')?.items.map((i) => [i.AppId, i.UserId, i.AppStatus]),
      [['Jabber', 'mlee', 'Open']],
    );
    assert.deepEqual(
      a.nodes.get('cucm-sub1')?.items.map((i) => [i.UserId, i.AppStatus]),
      [['jsmith', 'Open']],
    );
    const byUser = await select(ctiBody('', { by: 'UserId', apps: ['js*'] }));
    assert.equal(byUser.total, 1);
    assert.equal(byUser.nodes.get('cucm-pub')?.code, 'NotFound');
  });

  it('lists the devices and lines each provider controls, with DevNames and DirNumbers', async () => {
    const devices = await select(ctiBody('', { cls: 'Device', node: 'cucm-sub1' }));
    const names = devices.nodes
      .get('cucm-sub1')
      ?.items.map((i) => (i.CtiDevice as { DeviceName: string }).DeviceName);
    assert.deepEqual(names, ['SEP0A1B2C3D4E01', 'SEP0A1B2C3D4E02']);
    const one = await select(ctiBody('', { cls: 'Device', devs: ['*E02'] }));
    assert.equal(one.total, 1);
    const lines = await select(ctiBody('', { cls: 'Line', dns: ['1003'] }));
    assert.equal(lines.total, 1);
    const line = lines.nodes.get('cucm-pub')?.items[0];
    assert.equal((line?.CtiLine as { DirNumber: string }).DirNumber, '1003');
    assert.equal((line?.CtiDevice as { DeviceName: string }).DeviceName, 'SEP0A1B2C3D4E03');
    const closed = await select(ctiBody('', { cls: 'Device', status: 'Closed' }));
    assert.equal(closed.total, 0);
  });

  it('pages with StateInfo and MaxReturnedItems', async () => {
    const seen: string[] = [];
    let stateInfo = '';
    for (let i = 0; i < 5; i++) {
      const page = await select(ctiBody(stateInfo, { cls: 'Device', max: 1 }));
      if (page.total === 0) break;
      assert.equal(page.total, 1);
      for (const n of page.nodes.values())
        seen.push(...n.items.map((x) => (x.CtiDevice as { DeviceName: string }).DeviceName));
      stateInfo = page.stateInfo;
    }
    assert.deepEqual(seen.sort(), ['SEP0A1B2C3D4E01', 'SEP0A1B2C3D4E02', 'SEP0A1B2C3D4E03']);
  });

  it('advertises selectCtiItem with the element names of the real RISService70.wsdl', async (t) => {
    const cucm = labNode(lab.info, 'cucm');
    const wsdl = await call(`${cucm.urls.ris as string}?wsdl`, { ca: labTrustedPem(lab.info) });
    assert.match(wsdl.text, /<wsdl:operation name="selectCtiItem">/);
    const real = fixture('cucm-ris-schema', 'RISService70.wsdl');
    if (!real) {
      t.skip('the real RISService70.wsdl is not beside the checkout (../shared/fixtures)');
      return;
    }
    const fields = (text: string): Map<string, string[]> => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const schema = (parser.parse(text) as any).definitions.types.schema;
      return new Map(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        (schema.complexType as any[]).map((c) => [
          c['@name'] as string,
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          ((c.sequence?.element ?? []) as any[]).map((e) => e['@name'] as string),
        ]),
      );
    };
    const ours = fields(wsdl.text);
    const theirs = fields(readFileSync(join(real), 'utf8'));
    for (const type of [
      'CtiSelectionCriteria',
      'SelectCtiItemResult',
      'selectCtiItemReturn',
      'CtiNode',
      'CtiItem',
      'CtiDevice',
      'CtiLine',
      'SelectAppItem',
      'SelectDevName',
      'SelectDirNumber',
    ])
      assert.deepEqual(ours.get(type), theirs.get(type), type);
  });
});
