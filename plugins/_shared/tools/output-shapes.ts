// The structured results of the tools built from plugins/_shared, as their `output` shapes: what tools/list
// publishes as outputSchema and what the kernel checks each result against. Open where the node decides
// the content (an AXL answer, a probe's details); no descriptions, since every byte is in every tools/list.
import { CHANGE_CLASSES, PRODUCTS, z } from '../../../kernel/sdk/index.ts';

const product = z.enum(PRODUCTS);
const kind = z.enum(['axl', 'cupi', 'os', 'phone']);
/** What a call does on the node, from the change table (plugins/_shared/changes/). */
export const changeClass = z.enum(CHANGE_CLASSES);

/** A vault entry as listing shows it: where a credential is, never what it is. */
const credentialEntry = {
  product,
  kind,
  host: z.string(),
  updatedAt: z.string(),
  /** Writes forbidden with this credential (docs/vault.md, Read-only credentials). */
  read_only: z.boolean(),
};

const hostKeyStatus = z.object({
  product,
  host: z.string(),
  state: z.enum(['trusted', 'pending', 'rejected']),
  fingerprint: z.string(),
  pendingFingerprint: z.string().optional(),
});

/**
 * A store or update: done (with the entry), or, without a password in the arguments, the credential
 * page's outcome: a link to open (pending), or declined; `host_key` when the page decided on one.
 */
const credentialOutcome = {
  product,
  kind,
  host: z.string(),
  updatedAt: z.string().optional(),
  read_only: z.boolean().optional(),
  host_key: z.enum(['trusted', 'rejected']).optional(),
  pending: z.literal(true).optional(),
  url: z.string().optional(),
  expires_at: z.string().optional(),
  reason: z.enum(['declined', 'cancelled']).optional(),
  message: z.string().optional(),
};

export const storedOutput = { stored: z.boolean(), ...credentialOutcome };
export const updatedOutput = { updated: z.boolean(), ...credentialOutcome };
export const deletedOutput = { deleted: z.literal(true), product, kind, host: z.string() };
export const hostKeyOutput = hostKeyStatus.shape;

/** A `<product>_trust_certificate` decision: the host's state and the certificate's public facts. */
export const certificateOutput = {
  product,
  host: z.string(),
  state: z.enum(['trusted', 'pending', 'rejected']),
  fingerprint: z.string(),
  pendingFingerprint: z.string().optional(),
  certificate: z
    .object({
      fingerprint: z.string(),
      subject: z.string(),
      issuer: z.string(),
      self_signed: z.boolean(),
      not_before: z.string(),
      not_after: z.string(),
      subject_alt_names: z.array(z.string()),
    })
    .optional(),
};

export const listCredentialsOutput = {
  product,
  credentials: z.array(z.object(credentialEntry)),
  host_keys: z.array(hostKeyStatus),
};

export const versionOutput = { host: z.string(), version: z.string(), axl_version: z.string() };

/** One service of a connectivity check: its verdict, and details that depend on the service. */
const probeResult = z.looseObject({
  ok: z.boolean(),
  latency_ms: z.number(),
  error: z.string().optional(),
  reason: z.string().optional(),
});

export const connectivityOutput = {
  host: z.string(),
  ok: z.boolean(),
  services: z.record(z.string(), probeResult),
};

export const downloadAxlToolkitOutput = {
  host: z.string(),
  node_axl_version: z.string(),
  cached_versions: z.array(z.string()),
  all_cached_versions: z.array(z.string()),
  skipped_entries: z.number(),
};

interface Field {
  name: string;
  type?: string | undefined;
  many: boolean;
  nillable: boolean;
  children?: Field[] | undefined;
  truncated?: boolean | undefined;
  required?: boolean | undefined;
  choice?: { of: string[]; required: boolean } | undefined;
  enumeration?: string[] | undefined;
  enumeration_total?: number | undefined;
}
const field: z.ZodType<Field> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.string().optional(),
    many: z.boolean(),
    nillable: z.boolean(),
    children: z.array(field).optional(),
    truncated: z.boolean().optional(),
    required: z.boolean().optional(),
    choice: z.object({ of: z.array(z.string()), required: z.boolean() }).optional(),
    enumeration: z.array(z.string()).optional(),
    enumeration_total: z.number().optional(),
  }),
);

/** Either the operation list (optionally filtered) or one operation's request fields. */
export const listAxlOperationsOutput = {
  version: z.string(),
  pattern: z.string().optional(),
  count: z.number().optional(),
  operations: z.array(z.string()).optional(),
  /** Each listed operation's class, by name (beside `operations`, which stays a list of names). */
  change_classes: z.record(z.string(), changeClass).optional(),
  operation: z.string().optional(),
  change_class: changeClass.optional(),
  request_fields: z.array(field).optional(),
};

/**
 * An AXL answer: the envelope is the server's, the payload the node's (`rows`, `result`), any JSON.
 * Rows when the operation reads rows, `result` when it fits, else `partial_json` slices with a cursor.
 */
export const axlCallOutput = {
  host: z.string().optional(),
  operation: z.string().optional(),
  axl_version: z.string().optional(),
  change_class: changeClass,
  /** Absent from a dry run's answer. */
  complete: z.boolean().optional(),
  /** Why a row answer stops short without a cursor (the rows moved between pages). */
  incomplete: z.object({ code: z.string(), reason: z.string() }).optional(),
  count: z.number().optional(),
  rows: z.array(z.unknown()).optional(),
  result: z.unknown().optional(),
  partial_json: z.string().optional(),
  offset: z.number().optional(),
  total_chars: z.number().optional(),
  cursor: z.string().optional(),
};

export const osRunCommandOutput = {
  host: z.string(),
  command: z.string(),
  change_class: changeClass,
  // Absent from a dry run's answer (nothing was run).
  output: z.string().optional(),
  truncated: z.boolean().optional(),
  reused_shell: z.boolean().optional(),
  duration_ms: z.number().optional(),
};
