// CDRonDemandService as this client calls it (CUCM only: the service runs on the CDR Repository node).
// Sources for every name sent:
// - path /CDRonDemandService2/services/CDRonDemandService: the WSDL URL Cisco's serviceability samples
//   give (CiscoDevNet/serviceability-python-zeep-samples, README: "CDRonDemand:
//   https://{cucm}/CDRonDemandService2/services/CDRonDemandService?wsdl"); the same path in the public
//   clients calltelemetry/cisco-cucm-mcp (src/cdr-on-demand.ts) and the zeep CDRonDemand clients that
//   bind {http://schemas.cisco.com/ast/soap}CDRonDemandSoapBinding, which also gives the namespace.
// - get_file_list and its arguments in0 (start), in1 (end) as YYYYMMDDHHMM strings and in2 (boolean): the
//   developer.cisco.com CDRonDemand API reference names the operation
//   (https://developer.cisco.com/docs/sxml/cdrondemand-api); the element names are the WSDL's, as a
//   SOAP::WSDL typemap generated from the 9.1 WSDL lists them (CiscoUC::CDR::9_1::Typemaps::
//   CDRonDemandService: get_file_list/in0..in2, get_file_listResponse/get_file_listReturn/FileName) and
//   as calltelemetry/cisco-cucm-mcp sends them. The brief's in_fromDate / in_toDate / in_isgmt names are
//   confirmed by no public source we found, so they are not sent.
// - Times are UTC: the CDR file names carry UTC (Call Detail Records Administration Guide 12.5(1), "CDR
//   Processing", Filename Format) and the public zeep client documents in0/in1 as "Starting/Ending time
//   in UTC".
// - in2: "True = Include both files that were sent successfully and files that failed to be sent. False =
//   Send only the files that failed to be sent" (Cisco's CDR On-Demand Service description in the Unified
//   CM developer guides, as public clients quote it).
import { exceededAllowedRate, type ServiceabilityApi } from '../api.ts';
import type { SoapFields } from '../envelope.ts';

/**
 * The request budget. No Cisco document we read states CDRonDemand's rate; 10 requests a minute per node
 * is assumed (the API is meant "for ad-hoc inspection of a small number of individual files and is not
 * suitable for bulk CDR retrieval": developer.cisco.com CDRonDemand Overview), and a node's rate fault
 * ("Exceeded allowed rate", the wording the other serviceability APIs use) is believed, with the limit it
 * names if it names one.
 */
export const CDR_ON_DEMAND_API: ServiceabilityApi = {
  name: 'CDRonDemandService',
  path: '/CDRonDemandService2/services/CDRonDemandService',
  namespace: 'http://schemas.cisco.com/ast/soap',
  perMinute: 10,
  rateFault: exceededAllowedRate,
};

export const CDR_OPS = { list: 'get_file_list', get: 'get_file' } as const;

/** "The time interval of the request cannot exceed 1 hour" (the CDR On-Demand Service description). */
export const CDR_MAX_WINDOW_MINUTES = 60;

/**
 * "A limit of 1300 file names can be returned ... If the file list that is returned contains 1300 file
 * names, but does not span the entire requested time interval, you should make additional requests with
 * the start time of the subsequent requests as the time of the last file name that was returned."
 */
export const CDR_MAX_FILES_PER_ANSWER = 1300;

/** Elements always read as lists in get_file_list's answer. */
export const CDR_ARRAYS = ['FileName'] as const;

export function fileListFields(from: string, to: string, includeSent: boolean): SoapFields {
  return { in0: from, in1: to, in2: includeSent };
}

/**
 * get_file: in0 the billing server's host, in1 its user, in2 its password, in3 the remote directory, in4
 * the file name, in5 true for secure FTP (the same typemap; "Secure FTP: Mandatory parameter (Boolean)
 * that specifies whether to use standard FTP or secure (s)FTP", the CDR On-Demand Service description).
 * Always SFTP here: a password is never sent over plain FTP.
 */
export function getFileFields(
  host: string,
  user: string,
  password: string,
  directory: string,
  name: string,
): SoapFields {
  return { in0: host, in1: user, in2: password, in3: directory, in4: name, in5: true };
}
