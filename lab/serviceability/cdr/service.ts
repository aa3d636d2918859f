// CDRonDemandService on the lab's publisher (the CDR Repository node): get_file_list over the node's
// CDR repository with the API's documented limits: start and end as YYYYMMDDHHMM, the end after the
// start, an interval of at most one hour, at most 1300 file names per answer, and the third argument
// false for only the files that failed to reach the billing servers (Cisco's CDR On-Demand Service
// description in the Unified CM developer guides, as public clients quote it: "Specified time range
// cannot span over 1 hour", "Limit of 1300 file names get returned from the get_file_list API"; "If no
// filenames exist that match the time range, the value that is returned ... is simply null"). The fault
// texts are the lab's own (no public source quotes the node's); the request rate is the lab option's.
// get_file pushes the named file over SFTP to the host it is given (push.ts), one file per request, and
// answers once it is written ("returns normally with no value to indicate that the file has been
// successfully sent"; a failed transfer is a fault).
import type { XmlValue } from '../../xml/parse.ts';
import { childText } from '../../xml/parse.ts';
import type { CdrRepository } from '../../cucm/cdr/repository.ts';
import { cdrMinute } from '../../cucm/cdr/repository.ts';
import type { SoapServiceDef } from '../service.ts';
import { SoapFault } from '../service.ts';
import { isLoopback, sftpPush } from './push.ts';
import { CDR_NAMESPACE, CDR_PATH, cdrWsdl } from './wsdl.ts';

export const CDR_MAX_MINUTES = 60;
export const CDR_MAX_FILES = 1300;

function minuteOf(body: XmlValue, name: string, what: string): number {
  const text = (childText(body, name) ?? '').trim();
  const minute = cdrMinute(text);
  if (minute === undefined)
    throw new SoapFault(
      `Invalid ${what} '${text.slice(0, 40)}': expected 12 digits in the format YYYYMMDDHHMM`,
      'soapenv:Client',
    );
  return minute;
}

function flag(body: XmlValue): boolean {
  const v = (childText(body, 'in2') ?? '').trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new SoapFault(`Invalid boolean '${v.slice(0, 20)}' for in2`, 'soapenv:Client');
}

export interface CdrServiceOptions {
  repository: CdrRepository;
  perMinute: () => number;
  /** The port get_file connects to (a real node: 22). */
  pushPort: () => number;
}

export function cdrOnDemandService(o: CdrServiceOptions): SoapServiceDef {
  const repo = o.repository;
  return {
    name: 'CDRonDemandService',
    path: CDR_PATH,
    namespace: CDR_NAMESPACE,
    wsdl: cdrWsdl,
    perMinute: o.perMinute,
    rateFault: (limit) =>
      `Exceeded allowed rate for CDRonDemand. Current allowed rate is ${limit} requests per minute.`,
    operations: {
      get_file_list: ({ body }) => {
        const from = minuteOf(body, 'in0', 'start time');
        const to = minuteOf(body, 'in1', 'end time');
        const includeSent = flag(body);
        if (to <= from) throw new SoapFault('The start time must be before the end time', 'soapenv:Client');
        if (to - from > CDR_MAX_MINUTES)
          throw new SoapFault(
            `The time range spans ${to - from} minutes; it cannot span over 1 hour`,
            'soapenv:Client',
          );
        const names = repo
          .between(from, to)
          .filter((f) => includeSent || !f.sent)
          .slice(0, CDR_MAX_FILES)
          .map((f) => f.name);
        return { get_file_listReturn: names.length > 0 ? { FileName: names } : null };
      },
      get_file: async ({ body }) => {
        const arg = (n: number): string => childText(body, `in${n}`) ?? '';
        const [host, user, password, directory, name] = [0, 1, 2, 3, 4].map(arg) as [
          string,
          string,
          string,
          string,
          string,
        ];
        const secure = (childText(body, 'in5') ?? '').trim().toLowerCase();
        if (secure !== 'true' && secure !== '1')
          throw new SoapFault('The lab node sends CDR files by SFTP only (in5 true)', 'soapenv:Client');
        if (!isLoopback(host))
          throw new SoapFault(
            `The lab node sends files to loopback addresses only, not '${host.slice(0, 60)}'`,
            'soapenv:Client',
          );
        const file = repo.find(name.trim());
        if (!file) throw new SoapFault(`File ${name.slice(0, 80)} not found in the CDR Repository`);
        try {
          await sftpPush(
            { host, port: o.pushPort(), user, password, directory, name: file.name },
            repo.content(file),
          );
        } catch (err) {
          throw new SoapFault(`The SFTP transfer of ${file.name} failed: ${(err as Error).message}`);
        }
        return {};
      },
    },
  };
}
