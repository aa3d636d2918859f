import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RISError } from '../../../../kernel/sdk/index.ts';
import { readSelectAnswer } from '../../../../plugins/cucm/ris/answer.ts';
import { RisNodeRateFault } from '../../../../plugins/cucm/ris/errors.ts';
import { pagingDone, readProgress } from '../../../../plugins/cucm/ris/state-info.ts';
import { statusReason } from '../../../../plugins/cucm/ris/status-reasons.ts';

const ENV = (inner: string): string =>
  `<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;

const DEVICE = `<ns1:item><ns1:Name>SEP001122334455</ns1:Name><ns1:DirNumber>1001-Registered,1002-UnRegistered</ns1:DirNumber><ns1:DeviceClass>Phone</ns1:DeviceClass><ns1:Model>36670</ns1:Model><ns1:Status>Registered</ns1:Status><ns1:StatusReason>0</ns1:StatusReason><ns1:Description>R&amp;D &lt;lab&gt;</ns1:Description><ns1:TimeStamp>1700000000</ns1:TimeStamp><ns1:Protocol>SIP</ns1:Protocol><ns1:IPAddress><ns1:item><ns1:IP>10.0.0.5</ns1:IP><ns1:IPAddrType>ipv4</ns1:IPAddrType></ns1:item></ns1:IPAddress></ns1:item>`;
const RESULT = `<ns1:SelectCmDeviceResult><ns1:TotalDevicesFound>1</ns1:TotalDevicesFound><ns1:CmNodes><ns1:item><ns1:ReturnCode>Ok</ns1:ReturnCode><ns1:Name>cm1</ns1:Name><ns1:CmDevices>${DEVICE}</ns1:CmDevices></ns1:item></ns1:CmNodes></ns1:SelectCmDeviceResult>`;
const STATE =
  '<ns1:StateInfo>&lt;StateInfo&gt;&lt;Node Name="cm1" StateId="1" TotalItemsFound="1" TotalItemsReturned="1"/&gt;&lt;/StateInfo&gt;</ns1:StateInfo>';

const ok = (
  xml: string,
  status = 200,
): { status: number; headers: Record<string, string>; body: Buffer } => ({
  status,
  headers: {},
  body: Buffer.from(xml),
});

describe('reading selectCmDevice answers', () => {
  for (const [shape, inner] of [
    ['cucm15', `<ns1:selectCmDeviceReturn>${RESULT}${STATE}</ns1:selectCmDeviceReturn>`],
    ['legacy', `${RESULT}${STATE}`],
  ] as const) {
    it(`reads the ${shape} shape`, () => {
      const page = readSelectAnswer(
        ok(
          ENV(
            `<ns1:selectCmDeviceResponse xmlns:ns1="http://schemas.cisco.com/ast/soap">${inner}</ns1:selectCmDeviceResponse>`,
          ),
        ),
        'cm1',
      );
      assert.equal(page.shape, shape);
      assert.equal(page.records, 1);
      assert.equal(
        page.stateInfo,
        '<StateInfo><Node Name="cm1" StateId="1" TotalItemsFound="1" TotalItemsReturned="1"/></StateInfo>',
      );
      const d = page.nodes[0]?.devices[0];
      assert.ok(d);
      assert.deepEqual(
        {
          name: d.name,
          node: d.node,
          ips: d.ip_addresses,
          dns: d.dir_numbers,
          model: d.model,
          desc: d.description,
        },
        {
          name: 'SEP001122334455',
          node: 'cm1',
          ips: ['10.0.0.5'],
          dns: ['1001', '1002'],
          model: 36670,
          desc: 'R&D <lab>',
        },
      );
      assert.equal(d.timestamp, '2023-11-14T22:13:20.000Z');
      assert.deepEqual(d.status_reason, { code: 0, meaning: 'registered (no unregistration reason)' });
    });
  }

  it('maps the node rate AxisFault (Cisco typo included) with the limit it announces', () => {
    const fault = ENV(
      '<soapenv:Fault><faultcode>soapenv:Server.generalException</faultcode><faultstring>AxisFault: Exceeded allowed rate for Reatime information. Current allowed rate for realtime information is 7 requests per minute.</faultstring></soapenv:Fault>',
    );
    assert.throws(
      () => readSelectAnswer(ok(fault, 500), 'cm1'),
      (err: unknown) => {
        assert.ok(err instanceof RisNodeRateFault);
        assert.equal(err.nodeLimit, 7);
        return true;
      },
    );
  });

  it('turns other faults, HTTP errors and non-SOAP bodies into RISError with the reason', () => {
    const fault = ENV(
      '<soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>No such operation &apos;x&apos;</faultstring></soapenv:Fault>',
    );
    assert.throws(() => readSelectAnswer(ok(fault, 500), 'cm1'), /answered a fault: No such operation 'x'/);
    assert.throws(
      () => readSelectAnswer(ok('<html>login</html>', 401), 'cm1'),
      /authentication to RisPort70 on cm1 failed \(HTTP 401\)/,
    );
    assert.throws(
      () => readSelectAnswer(ok('<html>Service Unavailable</html>', 503), 'cm1'),
      /HTTP 503 without a SOAP envelope: Service Unavailable/,
    );
    assert.throws(() => readSelectAnswer(ok(ENV('<other/>')), 'cm1'), RISError);
  });
});

describe('StateInfo progress', () => {
  it('is done when every node returned all it found, not before', () => {
    const si = (r1: number, r2: number): string =>
      `<StateInfo><Node Name="a" StateId="${r1}" TotalItemsFound="10" TotalItemsReturned="${r1}"/><Node Name="b" StateId="${r2}" TotalItemsFound="5" TotalItemsReturned="${r2}"/></StateInfo>`;
    assert.deepEqual(readProgress(si(10, 0)), [
      { node: 'a', found: 10, returned: 10 },
      { node: 'b', found: 5, returned: 0 },
    ]);
    assert.equal(pagingDone(si(10, 0), 10, 10), false);
    assert.equal(pagingDone(si(10, 5), 5, 10), true);
  });

  it('without totals, a page shorter than asked and than 1000 ends, a full one continues, an empty one ends', () => {
    const bare = '<StateInfo><Node Name="a" StateId="77"/></StateInfo>';
    assert.equal(pagingDone(bare, 999, 2000), true);
    assert.equal(pagingDone(bare, 1000, 2000), false, 'a node capped at 1000 may hold more');
    assert.equal(pagingDone(bare, 0, 2000), true);
    assert.equal(pagingDone(bare, 200, 200), false);
  });
});

describe('status reasons', () => {
  it('names the documented codes and keeps unknown ones visible', () => {
    assert.equal(statusReason('6').meaning, 'connectivity error');
    assert.equal(statusReason('9').meaning, 'CallManager reset');
    assert.equal(statusReason('13').meaning, 'keep-alive timeout');
    assert.equal(statusReason('16').meaning, 'duplicate registration');
    assert.deepEqual(statusReason('99'), { code: 99, meaning: 'reason code 99 (not documented)' });
    assert.deepEqual(statusReason(undefined), { code: null, meaning: 'not reported' });
  });
});
