// Builders and readers for the fixture's multi-round-trip tools (SEP-2322): what they ask the client
// for, and what they make of its (untrusted) answers.
import type { InputRequest } from '../../../../kernel/sdk/index.ts';

/** A form for the client's user: one string field per name, all required. */
export function askUser(message: string, fields: string[]): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      message,
      requestedSchema: {
        type: 'object',
        properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])),
        required: fields,
      },
    },
  };
}

/** A form with a schema given whole (defaults, enums). */
export function askUserWith(message: string, requestedSchema: Record<string, unknown>): InputRequest {
  return { method: 'elicitation/create', params: { message, requestedSchema } };
}

export function askModel(text: string, maxTokens: number): InputRequest {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
  };
}

export const ASK_ROOTS: InputRequest = { method: 'roots/list', params: {} };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The content of an accepted elicitation answer, or undefined (missing, declined, malformed). */
export function accepted(answer: unknown): Record<string, unknown> | undefined {
  if (!isObject(answer) || answer.action !== 'accept' || !isObject(answer.content)) return undefined;
  return answer.content;
}

/** Any elicitation answer (accept, decline or cancel), as the 2025 scenarios report it. */
export function elicitation(
  answer: unknown,
): { action: string; content?: Record<string, unknown> } | undefined {
  if (!isObject(answer) || typeof answer.action !== 'string') return undefined;
  return { action: answer.action, ...(isObject(answer.content) ? { content: answer.content } : {}) };
}

/** The text of a sampling answer, or undefined. */
export function sampled(answer: unknown): string | undefined {
  if (!isObject(answer) || !isObject(answer.content)) return undefined;
  return typeof answer.content.text === 'string' ? answer.content.text : undefined;
}

/** The root URIs of a roots/list answer, or undefined. */
export function roots(answer: unknown): string[] | undefined {
  if (!isObject(answer) || !Array.isArray(answer.roots)) return undefined;
  return answer.roots.flatMap((r) => (isObject(r) && typeof r.uri === 'string' ? [r.uri] : []));
}
