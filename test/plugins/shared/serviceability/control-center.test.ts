// The ControlCenterServices requests and answers as the product writes and reads them: names escaped
// into the envelope, answers read defensively (a state outside the WSDL's enumeration, a reason code
// that is not a number, an item without a name).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import { child, parseUntrusted } from '../../../../plugins/_shared/node/xml-text.ts';
import { soapEnvelope } from '../../../../plugins/_shared/serviceability/envelope.ts';
import {
  CONTROL_CENTER_API,
  CONTROL_CENTER_ARRAYS,
  controlServicesFields,
  serviceStatusFields,
} from '../../../../plugins/_shared/serviceability/control-center/api.ts';
import {
  readServiceInformation,
  readStaticServiceList,
} from '../../../../plugins/_shared/serviceability/control-center/answers.ts';

function response(inner: string): ReturnType<typeof parseUntrusted> {
  const doc = parseUntrusted(
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns1:r xmlns:ns1="${CONTROL_CENTER_API.namespace}">${inner}</ns1:r></soapenv:Body></soapenv:Envelope>`,
    'test',
    { arrays: new Set(CONTROL_CENTER_ARRAYS), fail: (m) => new ServiceabilityError(m) },
  );
  const r = child(child(child(doc, 'Envelope'), 'Body'), 'r');
  assert.ok(r);
  return r;
}

describe('ControlCenterServices requests and answers', () => {
  it('every name is escaped into the request; an empty status request asks for every service', () => {
    const control = soapEnvelope(
      CONTROL_CENTER_API.namespace,
      'soapDoControlServices',
      controlServicesFields('cucm-pub', 'Stop', ['A & B <x/>']),
    );
    assert.match(
      control,
      /<ns:ControlServiceRequest><ns:NodeName>cucm-pub<\/ns:NodeName><ns:ControlType>Stop<\/ns:ControlType><ns:ServiceList><ns:item>A &amp; B &lt;x\/&gt;<\/ns:item><\/ns:ServiceList><\/ns:ControlServiceRequest>/,
    );
    const all = soapEnvelope(CONTROL_CENTER_API.namespace, 'soapGetServiceStatus', serviceStatusFields([]));
    assert.match(
      all,
      /<ns:soapGetServiceStatus><ns:ServiceStatus><\/ns:ServiceStatus><\/ns:soapGetServiceStatus>/,
    );
  });

  it('reads items defensively', () => {
    const info = readServiceInformation(
      response(
        '<ns1:soapGetServiceStatusReturn><ns1:ReturnCode>0</ns1:ReturnCode><ns1:ReasonCode>-1</ns1:ReasonCode><ns1:ServiceInfoList>' +
          '<ns1:item><ns1:ServiceName>Cisco Tftp</ns1:ServiceName><ns1:ServiceStatus>Started</ns1:ServiceStatus><ns1:ReasonCode>-1</ns1:ReasonCode><ns1:ReasonCodeString/><ns1:StartTime>Thu Nov 26 06:00:00 2026</ns1:StartTime><ns1:UpTime>12</ns1:UpTime></ns1:item>' +
          '<ns1:item><ns1:ServiceName>Odd</ns1:ServiceName><ns1:ServiceStatus>Exploded</ns1:ServiceStatus><ns1:ReasonCode>abc</ns1:ReasonCode><ns1:UpTime xsi:nil="true"/></ns1:item>' +
          '<ns1:item><ns1:ServiceStatus>Started</ns1:ServiceStatus></ns1:item>' +
          '</ns1:ServiceInfoList></ns1:soapGetServiceStatusReturn>',
      ),
      'soapGetServiceStatusReturn',
      'node',
    );
    assert.equal(info.return_code, '0');
    assert.deepEqual(info.services, [
      {
        name: 'Cisco Tftp',
        status: 'Started',
        reason_code: -1,
        reason: null,
        start_time: 'Thu Nov 26 06:00:00 2026',
        uptime_seconds: 12,
      },
      {
        name: 'Odd',
        status: 'Unknown',
        reason_code: null,
        reason: null,
        start_time: null,
        uptime_seconds: null,
      },
    ]);
    assert.throws(
      () => readServiceInformation(response('<x/>'), 'soapGetServiceStatusReturn', 'node'),
      ServiceabilityError,
    );
  });

  it('reads the static list with one or several dependent services', () => {
    const specs = readStaticServiceList(
      response(
        '<ns1:soapGetStaticServiceListReturn><ns1:Services>' +
          '<ns1:item><ns1:ServiceName>Cisco CTIManager</ns1:ServiceName><ns1:ServiceType>Service</ns1:ServiceType><ns1:Deployable>true</ns1:Deployable><ns1:GroupName>CM Services</ns1:GroupName><ns1:DependentServices><ns1:Service>Cisco CallManager</ns1:Service></ns1:DependentServices></ns1:item>' +
          '<ns1:item><ns1:ServiceName>Cisco Tomcat</ns1:ServiceName><ns1:Deployable>false</ns1:Deployable></ns1:item>' +
          '</ns1:Services></ns1:soapGetStaticServiceListReturn>',
      ),
      'node',
    );
    assert.deepEqual(specs[0]?.dependent_services, ['Cisco CallManager']);
    assert.equal(specs[0]?.deployable, true);
    assert.equal(specs[1]?.deployable, false);
    assert.equal(specs[1]?.type, null);
  });
});
