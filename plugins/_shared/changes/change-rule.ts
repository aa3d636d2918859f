// One row of the change table (classify.ts): the class it gives and why.
import type { ChangeClass } from '../../../kernel/sdk/index.ts';

export interface ChangeRule {
  readonly class: ChangeClass;
  /** Why this class: what the call does on the node. Shown in docs/change-classes.md. */
  readonly why: string;
}
