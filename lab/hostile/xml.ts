// XML documents carrying entity attacks: a DOCTYPE and the reference that would pull the entity into a
// value the client returns (the AXL version, a RisPort device name, a WSDL's namespace).
import type { XmlAttack } from './switches.ts';

export const DEFAULT_XML_TARGET = 'file:///etc/hostname';

const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const RIS_NS = 'http://schemas.cisco.com/ast/soap';

/** The DOCTYPE for `root` and where to use its entity. */
export function doctype(attack: XmlAttack, root: string, target: string): { dtd: string; ref: string } {
  const quoted = target.replace(/"/g, '%22');
  switch (attack) {
    case 'external-file':
    case 'external-url':
      return { dtd: `<!DOCTYPE ${root} [<!ENTITY xxe SYSTEM "${quoted}">]>`, ref: '&xxe;' };
    case 'parameter-entity':
      return { dtd: `<!DOCTYPE ${root} [<!ENTITY % remote SYSTEM "${quoted}"> %remote;]>`, ref: '15.0' };
    case 'billion-laughs': {
      const levels = ['<!ENTITY lol0 "lol">'];
      for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
      return { dtd: `<!DOCTYPE ${root} [${levels.join('')}]>`, ref: '&lol9;' };
    }
    case 'quadratic-blowup':
      return {
        dtd: `<!DOCTYPE ${root} [<!ENTITY a "${'A'.repeat(9_999)}">]>`,
        ref: '&a;'.repeat(50_000),
      };
  }
}

/** An AXL answer to `operation` (a getCCMVersion shape: the entity lands in the version). */
export function axlAnswer(
  attack: XmlAttack,
  target: string,
  version: string,
  operation: string,
  fault: boolean,
): string {
  const { dtd, ref } = doctype(attack, 'soapenv:Envelope', target);
  const body = fault
    ? `<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>${ref}</faultstring><detail><axlError><axlcode>5007</axlcode><axlmessage>${ref}</axlmessage><request>${operation}</request></axlError></detail></soapenv:Fault>`
    : `<ns:${operation}Response xmlns:ns="http://www.cisco.com/AXL/API/${version}"><return><componentVersion><version>${ref}</version></componentVersion></return></ns:${operation}Response>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${dtd}\n<soapenv:Envelope xmlns:soapenv="${SOAP_NS}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

/** A RisPort70 selectCmDevice answer whose one device is named by the entity. */
export function risAnswer(attack: XmlAttack, target: string, fault: boolean): string {
  const { dtd, ref } = doctype(attack, 'soapenv:Envelope', target);
  const body = fault
    ? `<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>${ref}</faultstring></soapenv:Fault>`
    : `<ns1:selectCmDeviceResponse xmlns:ns1="${RIS_NS}"><ns1:selectCmDeviceReturn><ns1:SelectCmDeviceResult><ns1:TotalDevicesFound>1</ns1:TotalDevicesFound><ns1:CmNodes><ns1:item><ns1:ReturnCode>Ok</ns1:ReturnCode><ns1:Name>cucm-pub</ns1:Name><ns1:CmDevices><ns1:item><ns1:Name>${ref}</ns1:Name><ns1:Status>Registered</ns1:Status></ns1:item></ns1:CmDevices></ns1:item></ns1:CmNodes></ns1:SelectCmDeviceResult><ns1:StateInfo></ns1:StateInfo></ns1:selectCmDeviceReturn></ns1:selectCmDeviceResponse>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${dtd}\n<soapenv:Envelope xmlns:soapenv="${SOAP_NS}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

/** A RisPort70 WSDL with the entity in an operation name. */
export function risWsdl(attack: XmlAttack, target: string): string {
  const { dtd, ref } = doctype(attack, 'wsdl:definitions', target);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${dtd}\n<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="${RIS_NS}"><wsdl:portType name="RisPortType"><wsdl:operation name="selectCmDevice"><wsdl:documentation>${ref}</wsdl:documentation></wsdl:operation></wsdl:portType></wsdl:definitions>`;
}

/** A schema document with the DOCTYPE before its root and the entity used in an annotation inside it. */
export function withDoctype(xml: string, attack: XmlAttack, root: string, target: string): string {
  const { dtd, ref } = doctype(attack, root, target);
  const decl = /^<\?xml[^?]*\?>\s*/.exec(xml)?.[0] ?? '';
  const rest = xml.slice(decl.length);
  const used = rest.replace(
    /<(?![?!])[^>]*>/,
    (start) => `${start}<xsd:annotation><xsd:documentation>${ref}</xsd:documentation></xsd:annotation>`,
  );
  return `${decl}${dtd}\n${used}`;
}
