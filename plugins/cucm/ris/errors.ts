// RISError subclasses that callers branch on: the paging loop stops (and returns a cursor) on a rate
// limit, whoever imposed it, but lets every other RIS failure through.
import { RISError } from '../../../kernel/sdk/index.ts';

/** The cluster's per-minute RisPort budget is spent; `retryAfterSeconds` says when a request fits again. */
export class RisRateLimitError extends RISError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    /** 'local': our own window refused before sending; 'node': the node answered its rate fault. */
    readonly source: 'local' | 'node',
  ) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The node's own AxisFault for the rate limit, with the limit it announced (its enterprise parameter). */
export class RisNodeRateFault extends RISError {
  constructor(
    message: string,
    readonly nodeLimit: number | undefined,
  ) {
    super(message);
  }
}

export { retryHint } from '../../_shared/node/window-limiter.ts';
