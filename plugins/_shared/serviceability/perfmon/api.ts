// PerfmonService as the serviceability client knows it. Path, namespace and operation names: the PerfMon
// API reference (https://developer.cisco.com/docs/sxml/perfmon-api, "Use the PerfMon WSDL:
// https://ServerName:8443/perfmonservice2/services/PerfmonService?wsdl") and the WSDL of Cisco's samples
// (CiscoDevNet/serviceability-python-zeep-samples, schema/PerfmonService.wsdl), which also names every
// element this client sends and reads.
import type { ServiceabilityApi } from '../api.ts';

/**
 * A node's rate fault, as one answers it: "Exceeded allowed rate for Perfmon information. Current allowed
 * rate for perfmon information is 80 requests per minute.PerfmonService" (quoted from a node in the
 * sieteunoseis/cisco-perfmon README). No Cisco document we read states the default figure; 80 is the one
 * a node announced there, and a node announcing a lower one is believed.
 */
const RATE_FAULT = /Exceeded allowed rate for Perfmon information/i;

export const PERFMON_API: ServiceabilityApi = {
  name: 'PerfmonService',
  path: '/perfmonservice2/services/PerfmonService',
  namespace: 'http://schemas.cisco.com/ast/soap',
  perMinute: 80,
  rateFault: (faultstring) => {
    if (!RATE_FAULT.test(faultstring)) return undefined;
    const m = /is (\d{1,6}) requests per minute/i.exec(faultstring);
    return m ? Number(m[1]) : null;
  },
};

/** The operations this client sends (element names of the WSDL above). */
export const PERFMON_OPS = {
  listCounter: 'perfmonListCounter',
  listInstance: 'perfmonListInstance',
  describe: 'perfmonQueryCounterDescription',
  collect: 'perfmonCollectCounterData',
  open: 'perfmonOpenSession',
  add: 'perfmonAddCounter',
  collectSession: 'perfmonCollectSessionData',
  close: 'perfmonCloseSession',
} as const;
