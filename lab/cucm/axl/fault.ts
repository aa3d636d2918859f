import { escapeXml } from '../../xml/write.ts';

export const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

/**
 * An AXL fault: `axlcode` is the AXL code or the negative Informix code, as a real node sends. AXL's own
 * faults (5003 invalid, 5007 item not found...) come as `soapenv:Server`; database errors (-239 duplicate,
 * -691 missing key) as `soapenv:Client`, as public captures of CUCM's AXL log show them.
 */
export class AxlFault extends Error {
  readonly faultcode: 'soapenv:Client' | 'soapenv:Server';

  constructor(
    readonly code: number,
    message: string,
    faultcode?: 'soapenv:Client' | 'soapenv:Server',
  ) {
    super(message);
    this.faultcode = faultcode ?? (code < 0 ? 'soapenv:Client' : 'soapenv:Server');
  }
}

export function notFound(what: string): AxlFault {
  return new AxlFault(5007, `Item not valid: The specified ${what} was not found`);
}

export function invalidRequest(message: string): AxlFault {
  return new AxlFault(5003, message);
}

/** A SOAP 1.1 fault with the `axlError` detail AXL clients parse. */
export function faultEnvelope(fault: AxlFault, operation: string): string {
  const message = escapeXml(fault.message);
  return (
    `<?xml version='1.0' encoding='UTF-8'?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}"><soapenv:Body>` +
    `<soapenv:Fault><faultcode>${fault.faultcode}</faultcode><faultstring>${message}</faultstring>` +
    `<detail><axlError><axlcode>${fault.code}</axlcode><axlmessage>${message}</axlmessage>` +
    `<request>${escapeXml(operation)}</request></axlError></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>`
  );
}

/** A plain SOAP fault without AXL detail (RisPort answers its rate limit this way). */
export function plainFaultEnvelope(faultcode: string, faultstring: string): string {
  return (
    `<?xml version='1.0' encoding='UTF-8'?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}"><soapenv:Body>` +
    `<soapenv:Fault><faultcode>${faultcode}</faultcode><faultstring>${escapeXml(faultstring)}</faultstring>` +
    `<detail/></soapenv:Fault></soapenv:Body></soapenv:Envelope>`
  );
}
