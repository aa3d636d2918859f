// The selectCmDevice / selectCmDeviceExt request. Every value goes through escapeXml: criteria come from
// an agent (select items are free text) and the StateInfo from the node; neither may become markup.
import type { RisOperation } from './constants.ts';
import { RIS_NAMESPACE, SOAP_ENV } from './constants.ts';
import { escapeXml } from './xml-text.ts';

/** CmSelectionCriteria, field for field (RisPort70 names in camelCase). */
export interface SelectCriteria {
  /** Records per answer; the node caps it (1000, or 2000 on recent releases). */
  maxReturnedDevices: number;
  deviceClass: string;
  /** Model enum number; 255 means any. */
  model: number;
  status: string;
  /** One CallManager node's name, or '' for all. */
  nodeName: string;
  selectBy: string;
  /** Patterns with `*` wildcards, matched as `selectBy` says. */
  selectItems: string[];
  protocol: string;
  downloadStatus: string;
}

export const DEFAULT_CRITERIA: SelectCriteria = {
  maxReturnedDevices: 1000,
  deviceClass: 'Any',
  model: 255,
  status: 'Any',
  nodeName: '',
  selectBy: 'Name',
  selectItems: ['*'],
  protocol: 'Any',
  downloadStatus: 'Any',
};

function el(name: string, value: string | number): string {
  return `<soap:${name}>${escapeXml(String(value))}</soap:${name}>`;
}

export function buildSelectEnvelope(operation: RisOperation, c: SelectCriteria, stateInfo: string): string {
  const items = c.selectItems.map((i) => `<soap:item>${el('Item', i)}</soap:item>`).join('');
  const criteria =
    el('MaxReturnedDevices', Math.max(1, Math.floor(c.maxReturnedDevices))) +
    el('DeviceClass', c.deviceClass) +
    el('Model', c.model) +
    el('Status', c.status) +
    el('NodeName', c.nodeName) +
    el('SelectBy', c.selectBy) +
    `<soap:SelectItems>${items}</soap:SelectItems>` +
    el('Protocol', c.protocol) +
    el('DownloadStatus', c.downloadStatus);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:soap="${RIS_NAMESPACE}"><soapenv:Body>` +
    `<soap:${operation}>${el('StateInfo', stateInfo)}<soap:CmSelectionCriteria>${criteria}</soap:CmSelectionCriteria></soap:${operation}>` +
    `</soapenv:Body></soapenv:Envelope>`
  );
}
