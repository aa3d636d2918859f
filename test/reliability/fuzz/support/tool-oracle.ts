// What every tool call must come back as: a success, or an isError result (or, rate limited, a 429)
// carrying one of the kernel's error codes (never INTERNAL_ERROR), within a time bound, with no secret
// and no stack trace in it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ERROR_CODES } from '../../../../kernel/errors/index.ts';
import { httpRefusal } from '../../../helpers/mcp-client.ts';
import { leakedSecrets, type Needle } from './secrets.ts';

export interface CallVerdict {
  /** 'OK' or the error code. */
  outcome: string;
  problems: string[];
  ms: number;
}

const KNOWN = new Set<string>(ERROR_CODES);
const STACK = /\bat [\w.<>$]+ \(?(?:file:|node:|\/)|node_modules\//;

/** Calls `tool` and judges the answer; never throws. */
export async function callAndJudge(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  needles: Needle[],
  timeoutMs: number,
): Promise<CallVerdict> {
  const started = performance.now();
  let result: unknown;
  try {
    result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs });
  } catch (err) {
    const ms = performance.now() - started;
    const msg = err instanceof Error ? err.message : String(err);
    // A rate-limited call is refused at the HTTP level (429): coded, and judged like a tool result.
    const refused = httpRefusal(err);
    if (refused?.status === 429 && refused.error === 'RATE_LIMITED') {
      const judged = judgeResult({ isError: true, content: [], structuredContent: refused }, args, needles);
      return { ...judged, problems: [...judged.problems, ...(STACK.test(msg) ? ['a stack trace'] : [])], ms };
    }
    return {
      outcome: 'THROWN',
      problems: [
        /timed out|timeout/i.test(msg) ? `no answer within ${timeoutMs} ms` : `the call threw: ${msg}`,
      ],
      ms,
    };
  }
  const ms = performance.now() - started;
  return { ...judgeResult(result, args, needles), ms };
}

export function judgeResult(
  result: unknown,
  args: Record<string, unknown>,
  needles: Needle[],
): { outcome: string; problems: string[] } {
  const problems: string[] = [];
  const r = result as {
    isError?: boolean;
    content?: unknown;
    structuredContent?: Record<string, unknown>;
  };
  if (!r || typeof r !== 'object' || !Array.isArray(r.content))
    return { outcome: 'MALFORMED', problems: ['not a tool result'] };
  let outcome = 'OK';
  if (r.isError === true) {
    const code = r.structuredContent?.error;
    const message = r.structuredContent?.message;
    outcome = typeof code === 'string' ? code : 'UNCODED';
    if (typeof code !== 'string' || !KNOWN.has(code))
      problems.push(`error without a known code: ${JSON.stringify(r.structuredContent)}`);
    else if (code === 'INTERNAL_ERROR') problems.push(`INTERNAL_ERROR: ${String(message)}`);
    if (typeof message !== 'string') problems.push('error without a message');
  }
  const text = JSON.stringify(result);
  if (STACK.test(text)) problems.push('a stack trace or source path in the answer');
  let sent: string;
  try {
    sent = JSON.stringify(args);
  } catch {
    sent = '';
  }
  const leaks = leakedSecrets(needles, Buffer.from(text, 'utf8'), Buffer.from(sent, 'utf8'));
  if (leaks.length > 0) problems.push(`secret in the answer: ${leaks.join(', ')}`);
  return { outcome, problems };
}
