// The lab's service table is the one source of service state: ControlCenterServices changes it, the CLI
// (`utils service list`, `utils diagnose`) reads it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controlCenterService } from '../../lab/serviceability/control-center/operations.ts';
import { SoapFault } from '../../lab/serviceability/service.ts';
import { nodeFacts } from '../../lab/vos/facts.ts';
import { resolveWeaknesses } from '../../lab/weaknesses/index.ts';
import type { XmlObject } from '../../lab/xml/parse.ts';
import { parseXml, stripPrefixes } from '../../lab/xml/parse.ts';
import type { XmlOutObject } from '../../lab/xml/write.ts';

function service(product: 'cucm' | 'imp' | 'cuc' = 'cucm') {
  const f = nodeFacts(product, `${product}-pub`, { profile: 'weak', weaknesses: resolveWeaknesses('weak') });
  return { f, def: controlCenterService({ names: [`${product}-pub`], services: f.services }) };
}

const body = (xml: string): XmlObject => stripPrefixes(parseXml(xml)) as XmlObject;

function run(def: ReturnType<typeof service>['def'], op: string, xml = '<x/>'): XmlOutObject {
  const b = body(xml);
  const content = def.operations[op]?.({ node: 'cucm-pub', user: 'axl', body: (b.x ?? b) as XmlObject });
  assert.ok(content);
  return Object.values(content)[0] as XmlOutObject;
}

function items(ret: XmlOutObject): XmlOutObject[] {
  const list = ret.ServiceInfoList as XmlOutObject | null;
  return (list?.item ?? []) as XmlOutObject[];
}

const control = (type: string, names: string[], node = 'cucm-pub'): string =>
  `<x><ControlServiceRequest><NodeName>${node}</NodeName><ControlType>${type}</ControlType><ServiceList>${names.map((n) => `<item>${n}</item>`).join('')}</ServiceList></ControlServiceRequest></x>`;

describe('lab ControlCenterServices', () => {
  it('a stop through the API shows on the CLI list, a start brings it back', () => {
    const { f, def } = service();
    const stopped = items(run(def, 'soapDoControlServices', control('Stop', ['Cisco Tftp'])));
    assert.equal(stopped[0]?.ServiceStatus, 'Stopped');
    assert.equal(stopped[0]?.ReasonCode, -1);
    assert.deepEqual(
      f.services.lines().find(([n]) => n === 'Cisco Tftp'),
      ['Cisco Tftp', 'STOPPED', 'Commanded Out of Service'],
    );
    const status = items(
      run(def, 'soapGetServiceStatus', '<x><ServiceStatus>Cisco Tftp</ServiceStatus></x>'),
    );
    assert.equal(status[0]?.ServiceStatus, 'Stopped');
    assert.equal(status[0]?.ReasonCodeString, 'Commanded Out of Service');
    run(def, 'soapDoControlServices', control('Start', ['Cisco Tftp']));
    assert.deepEqual(
      f.services.lines().find(([n]) => n === 'Cisco Tftp'),
      ['Cisco Tftp', 'STARTED'],
    );
  });

  it('every service when ServiceStatus is empty; unknown names come back Unknown', () => {
    const { f, def } = service('imp');
    const all = items(run(def, 'soapGetServiceStatus', '<x><ServiceStatus/></x>'));
    assert.equal(all.length, f.services.list().length);
    const unknown = items(run(def, 'soapGetServiceStatus', '<x><ServiceStatus>No Such</ServiceStatus></x>'));
    assert.equal(unknown[0]?.ServiceStatus, 'Unknown');
    assert.equal(unknown[0]?.ReasonCode, -1010);
  });

  it('refuses network services, services not activated, another node and a bad ControlType', () => {
    const { f, def } = service();
    const tomcat = items(run(def, 'soapDoControlServices', control('Stop', ['Cisco Tomcat'])));
    assert.equal(tomcat[0]?.ServiceStatus, 'Started');
    assert.equal(tomcat[0]?.ReasonCode, -1045);
    const ctl = items(run(def, 'soapDoControlServices', control('Start', ['Cisco CTL Provider'])));
    assert.equal(ctl[0]?.ReasonCode, -1068);
    assert.throws(
      () => run(def, 'soapDoControlServices', control('Stop', ['Cisco Tftp'], 'cucm-sub1')),
      (e: unknown) => e instanceof SoapFault && /local node only/.test(e.message),
    );
    assert.throws(() => run(def, 'soapDoControlServices', control('Kill', ['Cisco Tftp'])), SoapFault);
    assert.equal(f.services.find('Cisco Tftp')?.running, true);
  });

  it('the static list says which services are deployable', () => {
    const { def } = service('cuc');
    const specs = ((run(def, 'soapGetStaticServiceList').Services as XmlOutObject).item ??
      []) as XmlOutObject[];
    const by = (n: string) => specs.find((s) => s.ServiceName === n);
    assert.equal(by('Connection Conversation Manager')?.Deployable, true);
    assert.equal(by('Cisco Tomcat')?.Deployable, false);
  });
});
