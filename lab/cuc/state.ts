import type { VosState } from '../vos/state.ts';
import type { SessionTable } from './cupi/sessions.ts';
import type { CupiStore } from './cupi/store.ts';

/** The Unity Connection node: the CUPI directory, its sessions, and OS settings. */
export interface CucState {
  node: string;
  cupi: CupiStore;
  sessions: SessionTable;
  os: VosState;
}
