// Reads the Log Collection answers (the response element inside the SOAP Body): listNodeServiceLogs'
// listNodeServiceLogsReturn per node (name, ServiceLog/item, SystemLog/item) and selectLogFiles'
// ResultSet/SchemaFileSelectionResult/Node (name, ServiceList/ServiceLogs with name and SetOfFiles/File:
// name, absolutepath, filesize, modifiedDate). Names: the WSDL of Cisco's serviceability samples
// (CiscoDevNet/serviceability-python-zeep-samples, schema/LogCollectionPortTypeService.wsdl) and the
// path the public cisco-dime client reads (main.js). Everything is the node's text: bounded in count and
// length, a size that is not a number is null, a name with a path or control character is dropped from
// `name` (the absolute path stays, as the node's own key for GetOneFile, but is never used as a path here).
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import type { XmlNode } from '../../node/xml-text.ts';
import { child, isNode, list, text } from '../../node/xml-text.ts';

/** Names kept per list at most (a node has about two hundred services). */
export const MAX_NAMES = 1000;
/** Files kept per answer at most. */
export const MAX_FILES = 5000;
const MAX_CHARS = 1024;

export interface NodeLogs {
  node: string;
  service_logs: string[];
  system_logs: string[];
}

export interface LogFile {
  name: string;
  path: string;
  size: number | null;
  /** The node's words for the time it was last written. */
  modified: string | null;
  /** That time in ISO 8601 UTC when the node wrote it in UTC/GMT, else null. */
  modified_at: string | null;
}

export interface SelectedLogs {
  node: string;
  logs: { name: string; files: LogFile[] }[];
  /** Files left out beyond MAX_FILES. */
  truncated: number;
}

// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function clean(v: string | undefined): string | null {
  const t = v?.trim();
  if (t === undefined || t === '' || t.length > MAX_CHARS || CONTROL.test(t)) return null;
  return t;
}

function items(node: XmlNode | undefined): string[] {
  if (!isNode(node)) return [];
  const v = node.item;
  const values = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return values
    .map((s) => clean(typeof s === 'string' ? s : isNode(s) ? (s['#text'] as string | undefined) : undefined))
    .filter((s): s is string => s !== null)
    .slice(0, MAX_NAMES);
}

export function readNodeServiceLogs(response: XmlNode, host: string): NodeLogs[] {
  const returns = list(response.listNodeServiceLogsReturn);
  if (returns.length === 0 && response.listNodeServiceLogsReturn === undefined)
    throw new ServiceabilityError(`the Log Collection answer of ${host} has no listNodeServiceLogsReturn`);
  return returns
    .map((r) => ({
      node: clean(text(r, 'name')) ?? '',
      service_logs: items(child(r, 'ServiceLog')),
      system_logs: items(child(r, 'SystemLog')),
    }))
    .filter((n) => n.node !== '');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const JAVA_DATE = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (UTC|GMT) (\d{4})$/;

/** `Thu Nov 26 07:12:02 UTC 2026` (Java's Date.toString in UTC) as ISO 8601; null for anything else. */
export function isoOfJavaDate(s: string): string | null {
  const m = JAVA_DATE.exec(s);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1] as string);
  if (month < 0) return null;
  const at = Date.UTC(Number(m[7]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
  // A day the month does not have (Feb 30) is not a date the node meant; Date.UTC would roll it over.
  if (Number.isNaN(at) || new Date(at).getUTCDate() !== Number(m[2])) return null;
  return new Date(at).toISOString();
}

/** A file's base name when it is a plain one (no separator, no dot-only name), else null. */
export function plainName(name: string | null): string | null {
  if (name === null || /[/\\]/.test(name) || /^\.+$/.test(name)) return null;
  return name;
}

export function readSelectedLogs(response: XmlNode, host: string): SelectedLogs {
  const node = child(child(child(response, 'ResultSet'), 'SchemaFileSelectionResult'), 'Node');
  if (!node)
    throw new ServiceabilityError(
      `the Log Collection answer of ${host} has no ResultSet/SchemaFileSelectionResult/Node`,
    );
  let count = 0;
  let truncated = 0;
  const logs = list(child(node, 'ServiceList')?.ServiceLogs).map((s) => {
    const files: LogFile[] = [];
    for (const f of list(child(s, 'SetOfFiles')?.File)) {
      const path = clean(text(f, 'absolutepath'));
      if (path === null) continue;
      if (count >= MAX_FILES) {
        truncated++;
        continue;
      }
      count++;
      const size = clean(text(f, 'filesize'));
      const modified = clean(text(f, 'modifiedDate'));
      files.push({
        name: plainName(clean(text(f, 'name'))) ?? path.slice(path.lastIndexOf('/') + 1),
        path,
        size: size !== null && /^\d{1,15}$/.test(size) ? Number(size) : null,
        modified,
        modified_at: modified === null ? null : isoOfJavaDate(modified),
      });
    }
    return { name: clean(text(s, 'name')) ?? '', files };
  });
  return { node: clean(text(node, 'name')) ?? host, logs, truncated };
}
