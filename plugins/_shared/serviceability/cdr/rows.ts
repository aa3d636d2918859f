// CDR and CMR records as answers give them: the fields most questions need by default (or every field),
// epoch-second times as ISO 8601, cause values decoded, numbers as numbers. Field names are the CDR
// Administration Guide's.
import type { Cause } from './causes.ts';
import { decodeCause } from './causes.ts';

const CDR_SUMMARY = [
  'globalCallID_callId',
  'dateTimeOrigination',
  'dateTimeConnect',
  'dateTimeDisconnect',
  'duration',
  'callingPartyNumber',
  'originalCalledPartyNumber',
  'finalCalledPartyNumber',
  'origDeviceName',
  'destDeviceName',
  'origCause_value',
  'destCause_value',
];

const CMR_SUMMARY = [
  'globalCallID_callId',
  'deviceName',
  'directoryNum',
  'dateTimeStamp',
  'duration',
  'numberPacketsSent',
  'numberPacketsReceived',
  'numberPacketsLost',
  'jitter',
  'latency',
  'varVQMetrics',
];

const TIMES = new Set(['dateTimeOrigination', 'dateTimeConnect', 'dateTimeDisconnect', 'dateTimeStamp']);
const CAUSES = new Set(['origCause_value', 'destCause_value']);

export type RowValue = string | number | Cause | null;

function value(field: string, type: string | undefined, text: string): RowValue {
  if (CAUSES.has(field)) return decodeCause(text) ?? null;
  if (TIMES.has(field)) {
    // 0 is the guide's "not set" (a call never connected has dateTimeConnect 0).
    if (!/^\d{1,10}$/.test(text) || text === '0') return null;
    return new Date(Number(text) * 1000).toISOString();
  }
  if (type === 'INTEGER' && /^-?\d{1,15}$/.test(text)) return Number(text);
  return text;
}

/** One record shaped for the answer: the summary fields (or all), typed. */
export function shapeRow(
  kind: 'cdr' | 'cmr' | 'other',
  row: Record<string, string>,
  types: Record<string, string>,
  all: boolean,
): Record<string, RowValue> {
  const fields = all ? Object.keys(row) : kind === 'cmr' ? CMR_SUMMARY : CDR_SUMMARY;
  const out: Record<string, RowValue> = {};
  for (const f of fields) if (Object.hasOwn(row, f)) out[f] = value(f, types[f], row[f] as string);
  return out;
}
