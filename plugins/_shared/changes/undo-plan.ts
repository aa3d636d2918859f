// What the undo of one journalled change is, family by family (AXL, CUPI, service control): the object
// as it is now, the image the undo puts back, the requests that do it, and what it cannot bring back.
import type { ChangeKind, ChangeObject } from '../../../kernel/sdk/index.ts';
import type { Loss } from './axl-inverse.ts';
import type { Plain } from './values.ts';

export interface UndoPlan<Req> {
  kind: ChangeKind;
  /** `undo addRoutePartition`, `undo PUT /vmrest/distributionlists/<id>`. */
  operation: string;
  object: ChangeObject;
  /** The object read now, normalised (null: absent): the journal's after-image, or the undo is refused. */
  current: Plain | null;
  /** The image the undo puts back: the journal's before-image (null: the object goes away). */
  restores: Plain | null;
  /** Sent in order. Never empty: a change with nothing to send is refused (NO_INVERSE). */
  requests: Req[];
  losses: Loss[];
}

/** One family's undo: builds the plan from the node as it is now, sends it, reads the object back. */
export interface UndoSource<Req> {
  plan(): Promise<UndoPlan<Req>>;
  send(plan: UndoPlan<Req>): Promise<unknown>;
  /** The object after the undo (null: gone, as after the undo of an add); `applied`: what send answered. */
  readBack(plan: UndoPlan<Req>, applied: unknown): Promise<Plain | null>;
}
