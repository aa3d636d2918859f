/**
 * Type-table enums the lab uses (column value -> name shown by AXL). The numbers are the lab's own where
 * the real ones do not matter to a client; what matters is that AXL shows names and SQL shows numbers.
 */
export interface PhoneModel {
  enum: string;
  name: string;
  /** What `/CGI/Screenshot` answers with: recent models PNG, older ones BMP. */
  screenshot: { format: 'png' | 'bmp'; width: number; height: number };
}

export const PHONE_MODELS: readonly PhoneModel[] = [
  { enum: '436', name: 'Cisco 7965', screenshot: { format: 'bmp', width: 320, height: 222 } },
  { enum: '435', name: 'Cisco 7945', screenshot: { format: 'bmp', width: 320, height: 222 } },
  { enum: '621', name: 'Cisco 7841', screenshot: { format: 'png', width: 396, height: 162 } },
  { enum: '36670', name: 'Cisco 8865', screenshot: { format: 'png', width: 800, height: 480 } },
  { enum: '36669', name: 'Cisco 8845', screenshot: { format: 'png', width: 800, height: 480 } },
  { enum: '683', name: 'Cisco 8851', screenshot: { format: 'png', width: 800, height: 480 } },
];

export const SIP_TRUNK_MODEL = '131';

export const MODELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(PHONE_MODELS.map((m) => [m.enum, m.name])),
  [SIP_TRUNK_MODEL]: 'SIP Trunk',
};

export const PHONE_PRODUCTS: Readonly<Record<string, string>> = Object.fromEntries(
  PHONE_MODELS.map((m) => [m.enum, m.name]),
);

export const CLASSES = { '1': 'Phone', '2': 'Gateway', '18': 'Trunk' } as const;
export const CLASS_PHONE = '1';
export const CLASS_TRUNK = '18';

export const PROTOCOLS: Readonly<Record<string, string>> = { '0': 'SCCP', '11': 'SIP' };
export const PROTOCOL_SIP = '11';

export const SERVICES: Readonly<Record<string, string>> = {
  '0': 'Cisco CallManager',
  '1': 'Cisco Tftp',
  '2': 'Cisco RIS Data Collector',
  '8': 'Cisco AXL Web Service',
  '11': 'Enterprise Wide',
  '12': 'Cisco Audit Event Service',
};

export const NODE_USAGES: Readonly<Record<string, string>> = { '0': 'Publisher', '1': 'Subscriber' };
export const NODE_ROLES: Readonly<Record<string, string>> = {
  '1': 'CUCM Voice/Video',
  '2': 'CUCM IM and Presence',
};

export const SECURITY_MODES: Readonly<Record<string, string>> = {
  '1': 'Non Secure',
  '2': 'Authenticated',
  '3': 'Encrypted',
};
export const INCOMING_TRANSPORTS: Readonly<Record<string, string>> = { '4': 'TCP+UDP', '3': 'TLS' };
export const OUTGOING_TRANSPORTS: Readonly<Record<string, string>> = { '1': 'TCP', '2': 'UDP', '3': 'TLS' };
/** typeparam, shown by the names of AXL's XParam enumeration (the numbers are the lab's). */
export const PARAM_TYPES: Readonly<Record<string, string>> = {
  '1': 'boolean',
  '2': 'long',
  '3': 'string',
};

export function typeRows(values: Readonly<Record<string, string>>): { enum: string; name: string }[] {
  return Object.entries(values).map(([k, v]) => ({ enum: k, name: v }));
}
