import { escapeXml } from '../../xml/write.ts';

export const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

/** An AXL fault: `axlcode` is the AXL code or the negative Informix code, as a real node sends. */
export class AxlFault extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly faultcode: 'soapenv:Client' | 'soapenv:Server' = 'soapenv:Client',
  ) {
    super(message);
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
