// The CUPI rows of the change table: a class per HTTP method, and the paths where the method says too
// little. Paths are matched in their canonical form (plugins/cuc/cupi/path-policy.ts), lower-cased:
// CUPI resource names are lower case, object ids are GUIDs.
import type { ChangeRule } from './change-rule.ts';

/** Cisco's CUPI guides describe GET as the read of every resource and POST/PUT/DELETE as its writes. */
export const CUPI_METHOD_RULES: Readonly<Record<string, ChangeRule>> = {
  GET: { class: 'read', why: 'reads a resource; nothing on the node changes' },
  HEAD: { class: 'read', why: "reads a resource's headers; nothing on the node changes" },
  POST: { class: 'change', why: 'creates one object; deleting it puts the configuration back' },
  PUT: {
    class: 'change',
    why: 'changes fields of one object; its earlier values can be read first (GET) and written back',
  },
  DELETE: {
    class: 'destructive',
    why: 'deletes the object, and with a user its mailbox and messages: nothing brings them back',
  },
};

export interface CupiPathRule extends ChangeRule {
  readonly methods: readonly string[];
  /** Matched against the whole canonical path below /vmrest/, lower-cased. */
  readonly path: RegExp;
}

/** Checked before the method rows; the first match wins. */
export const CUPI_PATH_RULES: readonly CupiPathRule[] = [
  {
    methods: ['POST', 'PUT'],
    path: /^users\/[^/]+\/credential\/(pin|password)$/,
    class: 'destructive',
    why: "replaces a user's voicemail PIN or web password (or unlocks it): the old secret cannot be read back, so it cannot be restored, and the user must be told the new one",
  },
];

export const CUPI_UNKNOWN: ChangeRule = {
  class: 'destructive',
  why: 'a method this table does not know: treated as the worst case',
};
