import type { ChangeClass } from '../rbac/writes.ts';
import type { PluginModule, Product } from './types.ts';

/**
 * The change journal and the preview plans as a tool sees them (`ctx.changes`, `ctx.plans`), bound to
 * the calling client and tool: a plugin can neither write nor read another client's. Kernel 1.4.
 */

/** How a change reaches the node: the four kinds of write the change classification covers. */
export type ChangeKind = 'axl' | 'cupi' | 'cli' | 'service_control';
/** `applied`: the node accepted it; `failed`: it refused; `uncertain`: sent, answer lost (timeout). */
export type ChangeOutcome = 'applied' | 'failed' | 'uncertain';

/** The object a change touches, as precisely as the tool knows it. */
export interface ChangeObject {
  /** `phone`, `line`, `user`, `routePartition`, `/vmrest/users`, `service`... */
  type: string;
  name?: string;
  uuid?: string;
  /** A CUPI path or a CLI target, when that is what names it. */
  path?: string;
}

/** Who let the change go ahead: nobody needed to (`direct`), a previewed plan, or a person in the client. */
export interface ChangeConfirmation {
  how: 'direct' | 'plan' | 'elicitation';
  /** The client whose plan it was, or what the person answered through (never a secret). */
  who: string;
}

/** What a tool records after it sent a change; the kernel adds id, client, time, call_id, tool, product. */
export interface ChangeEntry {
  host: string;
  kind: ChangeKind;
  /** `addPhone`, `PUT /vmrest/users/<id>`, `utils service restart Cisco Tftp`, `Cisco Tftp: Restart`. */
  operation: string;
  /** The change classification's verdict (a `read` is never journalled). */
  change_class: Exclude<ChangeClass, 'read'>;
  object: ChangeObject;
  /** The object as read before the change (null: it did not exist, as before an add). */
  before: unknown;
  /** What was sent. */
  request: unknown;
  /** The object as read back after the change (null: it no longer exists, or could not be read). */
  after: unknown;
  outcome: ChangeOutcome;
  /** The node's refusal or the transport's failure, for `failed` and `uncertain` (never a secret). */
  error?: string;
  /** The id of the journalled change this one undoes. */
  undo_of?: string;
  /** The plan that confirmed it (see ChangePlans). */
  plan_id?: string;
  confirmed_by?: ChangeConfirmation;
}

/**
 * A journalled change, as stored and listed. Secrets are masked before the record is written (the audit
 * log's redaction: password, PIN, credential, token fields and secret-shaped text), and `before`,
 * `request` and `after` that would take the record past CHANGE_JOURNAL_MAX_RECORD_BYTES are replaced by
 * `{ omitted: true, bytes, sha256 }` and named in `omitted`.
 */
export interface ChangeRecord extends Omit<ChangeEntry, 'plan_id' | 'confirmed_by' | 'undo_of' | 'error'> {
  /** Sorts by time: a later change has a greater id. */
  id: string;
  client: string;
  /** ISO 8601, when the kernel stored it. */
  time: string;
  /** The tool call's id, as its ACTIONS audit records carry it. */
  call_id: string;
  tool: string;
  /** The module of the tool that made it (`cucm`, `imp`, `cuc`). */
  product: PluginModule;
  error: string | null;
  undo_of: string | null;
  plan_id: string | null;
  confirmed_by: ChangeConfirmation | null;
  omitted: string[];
}

export interface ChangeFilter {
  /** Only changes on this host (exact, case-insensitive). */
  host?: string;
  /** Only this product's changes (a product tool lists its own). */
  product?: Product;
  /** Only changes whose object's name, uuid or path contains this text (case-insensitive). */
  object?: string;
  /** ISO 8601 bounds, inclusive. */
  since?: string;
  until?: string;
  /** Most records in the page (1 to 200; default 50). */
  limit?: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string;
}

export interface ChangePage {
  /** Newest first. */
  changes: ChangeRecord[];
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  next_cursor: string | null;
}

/** The calling client's change journal. */
export interface ChangeJournalView {
  /**
   * Stores one applied (or attempted) change; resolved means it is on disk (fsynced). Throws
   * JOURNAL_UNAVAILABLE when it cannot be written.
   */
  record(entry: ChangeEntry): Promise<ChangeRecord>;
  /** The client's changes, newest first, filtered; BAD_REQUEST for a bad cursor or time. */
  list(filter?: ChangeFilter): Promise<ChangePage>;
  /** One of the client's changes; NOT_FOUND when unknown, past retention or another client's. */
  get(id: string): Promise<ChangeRecord>;
}

/** A preview's single-use confirmation, bound to the client, the tool, the arguments and the before-image. */
export interface IssuedPlan {
  plan_id: string;
  /** ISO 8601; CHANGE_PLAN_TTL_SECONDS after issue. */
  expires_at: string;
}

/**
 * Preview plans of the calling client and tool. Arguments are compared by content (key order does not
 * matter) without their top-level `dry_run` and `plan_id`, so the preview call and the confirmed call
 * give the same digest.
 */
export interface ChangePlans {
  /** A new plan for the change `args` describes, whose objects read as `before` now. */
  issue(p: { args: Record<string, unknown>; before: unknown }): Promise<IssuedPlan>;
  /**
   * Uses the plan, once: resolves when `planId` is this client's and this tool's, unexpired, unused,
   * for these `args`, and `before` (the objects read again now) equals the previewed before-image.
   * Throws PLAN_NOT_FOUND (unknown, or another client's), PLAN_EXPIRED, PLAN_USED, PLAN_MISMATCH (other
   * arguments or tool: the plan stays usable) or CHANGED_SINCE_PREVIEW (the plan is used up: preview
   * again). Of concurrent uses of one plan exactly one resolves.
   */
  consume(planId: string, p: { args: Record<string, unknown>; before: unknown }): Promise<void>;
}
