import type { ChangeClass, ChangeKind, ChangeObject } from '../../../kernel/sdk/index.ts';
import type { FieldChange } from './field-diff.ts';

/** What a preview found, read only (nothing sent that changes the node). */
export interface ChangePreview {
  change_class: Exclude<ChangeClass, 'read'>;
  kind: ChangeKind;
  /** addPhone / `PUT /vmrest/users/<id>` / the CLI line / `Cisco Tftp: Restart`. */
  operation: string;
  object: ChangeObject;
  /** Normalised before-image; null when the object does not exist yet (add/POST). */
  before: unknown;
  /** Exactly what would be sent. */
  request: unknown;
  diff: FieldChange[];
  /** Why there is no before-image or diff, when there is none (e.g. a CLI `set` command). */
  unreadable?: string;
  /** What an undo could not restore, known at preview time (secrets...). */
  losses?: { path: string; reason: string }[];
}

/** One family's way to preview and read back (AXL, CUPI, CLI, service control). */
export interface ChangeAdapter<I> {
  kind: ChangeKind;
  /** The classification of this call (from classify.ts). read: the gate lets it through untouched. */
  classify(input: I): ChangeClass;
  /** Reads the before-image and builds the diff; sends nothing that changes the node. */
  preview(input: I): Promise<ChangePreview>;
  /** The object as read back after `applied` (null: gone or unreadable). */
  readAfter(input: I, preview: ChangePreview, applied: unknown): Promise<unknown>;
}

export interface GateInput {
  dry_run?: boolean | undefined;
  plan_id?: string | undefined;
}
