// Where RisPort70 lives on a node and what it is called (PLATFORM-NOTES.md, "RisPort70").

export const RIS_PATH = '/realtimeservice2/services/RISService70';
export const RIS_NAMESPACE = 'http://schemas.cisco.com/ast/soap';
export const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

/**
 * The schema-cache folder of the WSDL: `<schemaCache>/ris/70/RISService70.wsdl`. RisPort70 is versioned
 * by its name, not by the CUCM release: the same service and operations answer from 9.x to 15, and the one
 * difference that matters (CUCM 15 wrapping the result in `selectCmDeviceReturn`) is handled when answers
 * are read, whatever the WSDL says. Keying the cache by the AXL-negotiated release instead would make every
 * RIS call depend on AXL (an extra round trip and a downloaded AXL schema) for no gain.
 */
export const RIS_SCHEMA_FOLDER = '70';
export const RIS_WSDL_FILE = 'RISService70.wsdl';

/** The operations this client speaks; both take the same criteria and answer the same shape. */
export const RIS_OPERATIONS = ['selectCmDevice', 'selectCmDeviceExt'] as const;
export type RisOperation = (typeof RIS_OPERATIONS)[number];
