// A tool's published outputSchema and the check of each structured result against it.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { z } from 'zod';
import type { ZodShape } from '../sdk/types.ts';
import { compactJsonSchema } from './compact-json-schema.ts';

/**
 * The structuredContent of a failed call (tool-result.ts errorResult: `error`, `message`, for
 * RATE_LIMITED `retry_after_s`). It is part of every published output schema because SDK v1 clients
 * (@modelcontextprotocol/sdk up to 1.x) check an isError result's structuredContent against the schema
 * too: a schema of the success shape alone would turn every refusal into a client-side -32602. Only its
 * two keys are named: the branch is in every tool's schema, and tools/list pays for each byte.
 */
const ERROR_BRANCH = { required: ['error', 'message'] } as const;

/**
 * The outputSchema tools/list publishes for a tool declaring `output`: an object that is either the
 * declared result (no key beyond the declared ones, unless the shape says loose) or the error envelope.
 * Definitions ($defs, for recursive shapes) stay at the root, where their references point.
 */
export function publishedOutputSchema(shape: ZodShape): Record<string, unknown> {
  const {
    $defs,
    type: _type,
    ...success
  } = compactJsonSchema(z.toJSONSchema(z.object(shape), { io: 'output' }) as Record<string, unknown>);
  return {
    type: 'object',
    anyOf: [success, ERROR_BRANCH],
    ...($defs !== undefined ? { $defs } : {}),
  };
}

const validators = new AjvJsonSchemaValidator();
const compiled = new WeakMap<object, (value: unknown) => string | undefined>();

/**
 * Why a tool's structured result does not match its published schema, or undefined when it does (or the
 * tool has none). Compiled once per schema; the message names paths and rules, never values.
 */
export function outputMismatch(
  schema: Record<string, unknown> | undefined,
  value: unknown,
): string | undefined {
  if (!schema) return undefined;
  let check = compiled.get(schema);
  if (!check) {
    const validate = validators.getValidator(schema as Parameters<typeof validators.getValidator>[0]);
    check = (v) => {
      const r = validate(v);
      return r.valid ? undefined : (r.errorMessage ?? 'does not match');
    };
    compiled.set(schema, check);
  }
  return check(value);
}

/** Tools already reported: one app.log line per tool and process, however often it is called. */
const reported = new WeakSet<object>();

/**
 * Checks a successful call's structured result against the tool's published schema. A mismatch is a
 * defect of the tool (its declared contract and its result disagree): app.log says which tool and why,
 * once, and the result still goes out as it is, since the call has happened (a client that validates
 * refuses it itself). A structured result from a tool that declares no output schema (a bundle written
 * before kernel 1.2 may) is reported once too, as a warning.
 */
export function checkStructuredOutput(
  tool: { name: string; outputJsonSchema?: Record<string, unknown> | undefined },
  structured: Record<string, unknown> | undefined,
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void },
): void {
  if (structured === undefined || reported.has(tool)) return;
  if (!tool.outputJsonSchema) {
    reported.add(tool);
    log.warn({ tool: tool.name }, 'a tool returned structured content but declares no output schema');
    return;
  }
  const why = outputMismatch(tool.outputJsonSchema, structured);
  if (why === undefined) return;
  reported.add(tool);
  log.error(
    { tool: tool.name, mismatch: why.slice(0, 500) },
    'a tool result does not match its output schema',
  );
}
