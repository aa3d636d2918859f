import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { redact, scrubText } from '../logging/redact.ts';
import { toJsonLine } from '../logging/json-line.ts';
import type { ChangeEntry, ChangeRecord } from '../sdk/changes.ts';
import type { PluginModule } from '../sdk/types.ts';

/** Longest identifying text kept (host, operation, object names, error): the audit log's bound. */
const MAX_FIELD_CHARS = 512;

/** Who made the change and when: what the kernel adds to a tool's entry. */
export interface RecordOrigin {
  client: string;
  callId: string;
  tool: string;
  product: PluginModule;
  now: Date;
}

const text = z.string().max(100_000);
const entrySchema = z.object({
  host: text,
  kind: z.enum(['axl', 'cupi', 'cli', 'service_control']),
  operation: text,
  change_class: z.enum(['change', 'destructive']),
  object: z.object({
    type: text,
    name: text.optional(),
    uuid: text.optional(),
    path: text.optional(),
  }),
  before: z.unknown(),
  request: z.unknown(),
  after: z.unknown(),
  outcome: z.enum(['applied', 'failed', 'uncertain']),
  error: text.optional(),
  undo_of: text.optional(),
  plan_id: text.optional(),
  confirmed_by: z.object({ how: z.enum(['direct', 'plan', 'elicitation']), who: text }).optional(),
});

/**
 * Secrets of node objects the log's key list does not name (it masks password, PIN, credential, token,
 * secret...): SNMP communities, PINs under longer names, pre-shared keys and passcodes. Masked too: a
 * journal of configuration objects meets more kinds of secret than a log does.
 */
const NODE_SECRET = /communit(y|ies)|pin$|passcode|pre_?shared|psk$/i;
const nodeSecret = (key: string): boolean => NODE_SECRET.test(key);

/** The images a record may carry whole or, past the record bound, as a digest only. */
const IMAGES = ['before', 'request', 'after'] as const;

let lastMs = 0;
let seq = 0;

/**
 * `chg_<ms>_<seq>_<random>`, base 36 and zero-padded, so ids sort as the changes were made (within one
 * millisecond of one process by its sequence) and never repeat across processes sharing the journal.
 */
export function newChangeId(now: Date): string {
  const ms = now.getTime();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const random = randomBytes(4).toString('hex');
  return `chg_${ms.toString(36).padStart(9, '0')}_${seq.toString(36).padStart(4, '0')}_${random}`;
}

export const CHANGE_ID = /^chg_[0-9a-z]{9}_[0-9a-z]{4,}_[0-9a-f]{8}$/;

/**
 * The record as stored, and its line: secrets masked (the audit log's redaction), identifying text
 * clipped, and the images replaced by their size and digest, largest first, while the line is longer
 * than `maxBytes`. `time` comes first in the line, so the journal reads a file's oldest time from its
 * first bytes.
 */
export function buildRecord(
  raw: ChangeEntry,
  origin: RecordOrigin,
  maxBytes: number,
): { record: ChangeRecord; line: string } {
  const entry = entrySchema.parse(raw);
  const images: Record<(typeof IMAGES)[number], unknown> = {
    before: redact(entry.before ?? null, 0, nodeSecret),
    request: redact(entry.request ?? null, 0, nodeSecret),
    after: redact(entry.after ?? null, 0, nodeSecret),
  };
  const omitted: string[] = [];
  const compose = (): ChangeRecord => ({
    time: origin.now.toISOString(),
    id,
    client: origin.client,
    call_id: clip(origin.callId),
    tool: clip(origin.tool),
    product: origin.product,
    host: clip(entry.host),
    kind: entry.kind,
    operation: clip(entry.operation),
    change_class: entry.change_class,
    object: {
      type: clip(entry.object.type),
      ...(entry.object.name !== undefined ? { name: clip(entry.object.name) } : {}),
      ...(entry.object.uuid !== undefined ? { uuid: clip(entry.object.uuid) } : {}),
      ...(entry.object.path !== undefined ? { path: clip(entry.object.path) } : {}),
    },
    before: images.before,
    request: images.request,
    after: images.after,
    outcome: entry.outcome,
    error: entry.error !== undefined ? clip(entry.error) : null,
    undo_of: entry.undo_of !== undefined ? clip(entry.undo_of) : null,
    plan_id: entry.plan_id !== undefined ? clip(entry.plan_id) : null,
    confirmed_by: entry.confirmed_by
      ? { how: entry.confirmed_by.how, who: clip(entry.confirmed_by.who) }
      : null,
    omitted: [...omitted],
  });
  const id = newChangeId(origin.now);
  let record = compose();
  let line = toJsonLine(record);
  const bySize = IMAGES.map((k) => ({ k, json: toJsonLine(images[k]) })).sort(
    (a, b) => b.json.length - a.json.length,
  );
  for (const { k, json } of bySize) {
    if (line.length <= maxBytes) break;
    images[k] = {
      omitted: true,
      bytes: json.length,
      sha256: createHash('sha256').update(json).digest('hex'),
    };
    omitted.push(k);
    record = compose();
    line = toJsonLine(record);
  }
  return { record, line };
}

function clip(v: string): string {
  const s = scrubText(v);
  return s.length > MAX_FIELD_CHARS ? `${s.slice(0, MAX_FIELD_CHARS)}…(${s.length} chars)` : s;
}

/** A stored line read back: an object with the fields every record has; anything else is skipped. */
export function parseRecord(line: string): ChangeRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  if (typeof r.id !== 'string' || !CHANGE_ID.test(r.id)) return undefined;
  if (typeof r.client !== 'string' || typeof r.time !== 'string' || Number.isNaN(Date.parse(r.time)))
    return undefined;
  return r as unknown as ChangeRecord;
}
