// What the product plugins' shared tools expect in `ctx.shared`. Each product plugin builds these in
// its setup; the tool factories below only name the parts they use.
import type { AxlConnections } from '../axl/connections.ts';
import type { HeldAnswers } from '../axl/answer-cursor.ts';
import type { VosShellPool } from '../vos/shell-pool.ts';

export interface AxlState {
  axl: AxlConnections;
  held: HeldAnswers;
}

export interface VosState {
  shells: VosShellPool;
}
