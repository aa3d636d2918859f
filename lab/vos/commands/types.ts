import type { Database } from '../../informix/database.ts';
import type { LabLog } from '../../state/log.ts';
import type { NodeFacts } from '../facts.ts';
import type { VosProduct, VosState } from '../state.ts';

export interface CommandContext {
  os: VosState;
  facts: NodeFacts;
  /** The node's Informix database, for `run sql` (CUCM and IM&P). */
  db?: Database;
  log: LabLog;
  user: string;
  now: Date;
  /** When the tomcat certificate expires (the one the node really serves). */
  tomcatNotAfter: Date;
  /** When it began to be valid, and its serial (hex): the served certificate's. */
  tomcatNotBefore?: Date;
  tomcatSerial?: string;
  /** That certificate (PEM), printed by `show cert own tomcat` after its fields. */
  tomcatCertPem?: string;
  /** This session's automatic pagination (`show cli pagination`); the shell fills it in. */
  pagination?: boolean;
}

/** A question the shell asks before acting; the answer picks the output. */
export interface Confirmation {
  lines: string[];
  prompt: string;
  yes(): CommandOutput;
  no(): CommandOutput;
}

export interface CommandOutput {
  lines: string[];
  outcome?: 'ok' | 'failed';
  confirm?: Confirmation;
  /** Session setting changes: `set cli pagination`. */
  pagination?: boolean;
  /** The shell ends after this output (quit, a restart). */
  close?: boolean;
  /** Shown through the `options:` pager (`file view`, the `page` option), whatever the pagination. */
  paged?: boolean;
}

export interface CliCommand {
  /** Keywords, matched case-insensitively as whole words. */
  words: string[];
  /** Whether words may follow the keywords. */
  takesArgs?: boolean;
  products?: VosProduct[];
  run(ctx: CommandContext, args: string[], raw: string): CommandOutput;
}

export const FAILED = 'Executed command unsuccessfully';

export function failed(...reason: string[]): CommandOutput {
  return { lines: [...reason, FAILED], outcome: 'failed' };
}
