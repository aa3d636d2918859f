// get_file_list over a span: one request per window of at most the API's hour, a window that answers the
// API's 1300 names asked again from the time of its last file (as the API reference says to), names
// de-duplicated (windows share their boundary minute), and bounds on requests and files so that a span
// full of files ends with an honest "incomplete" rather than the node's whole budget.
import type { XmlNode } from '../../node/xml-text.ts';
import { child, isNode } from '../../node/xml-text.ts';
import { SoapFaultError } from '../answer.ts';
import type { SoapCall } from '../client.ts';
import { CDR_ARRAYS, CDR_MAX_FILES_PER_ANSWER, CDR_ON_DEMAND_API, CDR_OPS, fileListFields } from './api.ts';
import type { CdrFileName, Window } from './times.ts';
import { cdrTime, isoMinute, parseFileName, windowsOf } from './times.ts';

/** A file name as this server passes it on: the node's text, so only the characters real names use. */
const SAFE_NAME = /^[A-Za-z0-9._-]{1,255}$/;

/**
 * "No files exist in the CDR Repository" is one of the conditions the service answers with a fault (the
 * CDR On-Demand Service description, Fault); an empty window is no error here.
 */
const NO_FILES = /no (cdr )?files? (exists?|found)/i;

export interface ListOptions {
  includeSent: boolean;
  /** Files kept at most; past it the answer says it stopped. */
  maxFiles: number;
  /** get_file_list requests at most for the span (windows and continuations together). */
  maxRequests: number;
  signal?: AbortSignal;
}

export interface WindowResult {
  from: string;
  to: string;
  files: number;
  requests: number;
}

export interface ListResult {
  files: CdrFileName[];
  windows: WindowResult[];
  requests: number;
  complete: boolean;
  stopped_because?: string;
  /** Names the node sent that are not file names (control characters, markup...): left out. */
  unreadable_names: number;
}

type Send = (c: SoapCall) => Promise<XmlNode>;

/** The names in one answer (get_file_listReturn/FileName; null or absent when there are none). */
export function namesOf(answer: XmlNode): unknown[] {
  const ret = child(answer, 'get_file_listReturn');
  if (!ret) return [];
  const names = ret.FileName;
  return Array.isArray(names) ? names : names === undefined ? [] : [names];
}

function nameText(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim();
  if (isNode(v) && typeof v['#text'] === 'string') return v['#text'].trim();
  return undefined;
}

export async function listFiles(send: Send, span: Window, o: ListOptions): Promise<ListResult> {
  const seen = new Set<string>();
  const files: CdrFileName[] = [];
  const windows: WindowResult[] = [];
  let requests = 0;
  let unreadable = 0;
  const stop = (because: string): ListResult => ({
    files,
    windows,
    requests,
    complete: false,
    stopped_because: because,
    unreadable_names: unreadable,
  });
  const all = windowsOf(span.from, span.to);
  for (const [i, w] of all.entries()) {
    const done: WindowResult = { from: isoMinute(w.from), to: isoMinute(w.to), files: 0, requests: 0 };
    windows.push(done);
    let start = w.from;
    for (;;) {
      if (requests >= o.maxRequests)
        return stop(
          `max_requests: ${o.maxRequests} get_file_list requests were sent; ask again from ${isoMinute(start)}`,
        );
      requests++;
      done.requests++;
      const names = await send({
        api: CDR_ON_DEMAND_API,
        operation: CDR_OPS.list,
        fields: fileListFields(cdrTime(start), cdrTime(w.to), o.includeSent),
        arrays: CDR_ARRAYS,
        ...(o.signal ? { signal: o.signal } : {}),
      }).then(namesOf, (err: unknown) => {
        if (err instanceof SoapFaultError && NO_FILES.test(err.faultstring)) return [];
        throw err;
      });
      let last: number | undefined;
      for (const raw of names) {
        const name = nameText(raw);
        if (name === undefined || !SAFE_NAME.test(name)) {
          unreadable++;
          continue;
        }
        const parsed = parseFileName(name);
        if (parsed.minute !== undefined) last = Math.max(last ?? parsed.minute, parsed.minute);
        if (seen.has(name)) continue;
        seen.add(name);
        if (files.length >= o.maxFiles)
          return stop(`max_files: ${o.maxFiles} files listed; ask a shorter span or a larger max_files`);
        files.push(parsed);
        done.files++;
      }
      if (names.length < CDR_MAX_FILES_PER_ANSWER) break;
      // A full answer: the rest of the window starts at its last file's minute. Without progress (1300
      // files in one minute, or names without a time) nothing more can be asked of this window.
      if (last === undefined || last <= start)
        return stop(
          `the node answered ${CDR_MAX_FILES_PER_ANSWER} names for ${isoMinute(start)} alone, its most per answer; later files of that minute cannot be listed`,
        );
      // The window's last minute is the next window's first: that one lists the rest.
      if (last >= w.to) {
        if (i < all.length - 1) break;
        return stop(
          `the node answered ${CDR_MAX_FILES_PER_ANSWER} names up to ${isoMinute(w.to)}, its most per answer; ask again from ${isoMinute(w.to)}`,
        );
      }
      start = last;
    }
  }
  return { files, windows, requests, complete: true, unreadable_names: unreadable };
}
