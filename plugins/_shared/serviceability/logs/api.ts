// Log Collection as the serviceability client calls it. Names are the API's: the path
// /logcollectionservice2/services/LogCollectionPortTypeService (developer.cisco.com, Log Collection API,
// https://developer.cisco.com/docs/sxml/log-collection-api: "Use the Log Collection WSDL:
// https://<cucm_server>:8443/logcollectionservice2/services/LogCollectionPortTypeService?wsdl"), the
// operations listNodeServiceLogs (ListRequest, left empty as that page's sample sends it) and
// selectLogFiles with FileSelectionCriteria and its sixteen elements in the WSDL's order, the
// enumeration values OnDemand, DownloadtoClient and None (the WSDL of Cisco's samples:
// CiscoDevNet/serviceability-python-zeep-samples, schema/LogCollectionPortTypeService.wsdl, and
// logcollection_GetOneFile.py, which sends every element, RelText None and RelTime 0). The date form
// "MM/dd/yy hh:mm AM" and the TimeZone form "Client: (GMT+0:0)Greenwich Mean Time-Europe/London" are
// those of a public client that drives real nodes (sieteunoseis/cisco-dime README); no Cisco page read
// here states them.
import { exceededAllowedRate, type ServiceabilityApi } from '../api.ts';
import type { SoapFields } from '../envelope.ts';

/**
 * The node's budget for the API. No Cisco document read for this project gives it, nor the fault a
 * node answers beyond it: 15 a minute is assumed, as for Control Center, and any fault saying "Exceeded
 * allowed rate" is read as the node's rate fault (a node announcing its figure is believed).
 */
export const LOG_COLLECTION_API: ServiceabilityApi = {
  name: 'LogCollectionPortTypeService',
  path: '/logcollectionservice2/services/LogCollectionPortTypeService',
  namespace: 'http://schemas.cisco.com/ast/soap',
  perMinute: 15,
  rateFault: exceededAllowedRate,
};

/** Elements always lists in the answers. */
export const LOG_COLLECTION_ARRAYS = ['listNodeServiceLogsReturn', 'item', 'ServiceLogs', 'File'] as const;

export function listNodeServiceLogsFields(): SoapFields {
  return { ListRequest: '' };
}

/**
 * The zone the dates are sent in. The node reads the IANA name after the "-" (the form above); London's
 * wall clock is what the dates are written in, so summer time is right whichever way a node reads it.
 */
export const TIME_ZONE = 'Client: (GMT+0:0)Greenwich Mean Time-Europe/London';
const ZONE = 'Europe/London';

/** `at` as "MM/dd/yy hh:mm AM" on London's wall clock. */
export function wallDate(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(at);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('month')}/${get('day')}/${get('year')} ${get('hour')}:${get('minute')} ${get('dayPeriod').toUpperCase()}`;
}

/** selectLogFiles listing the files (DownloadtoClient: nothing is pushed anywhere) of a time window. */
export function selectLogFilesFields(
  serviceLogs: readonly string[],
  systemLogs: readonly string[],
  from: Date,
  to: Date,
): SoapFields {
  return {
    FileSelectionCriteria: {
      ServiceLogs: { item: [...serviceLogs] },
      SystemLogs: { item: [...systemLogs] },
      SearchStr: '',
      Frequency: 'OnDemand',
      JobType: 'DownloadtoClient',
      ToDate: wallDate(to),
      FromDate: wallDate(from),
      TimeZone: TIME_ZONE,
      RelText: 'None',
      RelTime: 0,
      Port: 0,
      IPAddress: '',
      UserName: '',
      Password: '',
      ZipInfo: false,
      RemoteFolder: '',
    },
  };
}
