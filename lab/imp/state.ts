import type { Database } from '../informix/database.ts';
import type { VosState } from '../vos/state.ts';

/** The IM&P node: its own database (presence assignments, redundancy groups) and OS settings. */
export interface ImpState {
  node: string;
  db: Database;
  os: VosState;
}
