import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';

/** MCP 2025-11-25 (server/resources, error handling): "Resource not found: -32002". */
export const RESOURCE_NOT_FOUND_2025 = -32002;

/**
 * Marks the data of a 2025-11-25 resource-not-found error. SDK v2 answers -32002 as -32602 on every
 * revision (its reading of SEP-2164); the mark, which JSON never carries, lets the kernel's transport
 * hook put back the code 2025-11-25 defines (restoreLegacyNotFound).
 */
const LEGACY_NOT_FOUND = Symbol('resource not found, MCP 2025-11-25');

/**
 * The answer to resources/read of a URI this caller has no resource at, in the caller's own revision:
 * -32002 on 2025-11-25 (that revision's code), -32602 Invalid Params from 2026-07-28 on (SEP-2164 moved
 * it into JSON-RPC's own range). Both carry the URI as `data.uri`, as both revisions' examples do. A
 * 2026-07-28 request names its revision in its `_meta` envelope; a 2025-11-25 session request has none.
 */
export function resourceNotFound(uri: string, envelope: unknown, message: string): ProtocolError {
  const revision =
    envelope && typeof envelope === 'object'
      ? (envelope as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]
      : undefined;
  const data: Record<string | symbol, unknown> = { uri: uri.slice(0, 2048) };
  if (typeof revision === 'string' && revision >= '2026-07-28')
    return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
  data[LEGACY_NOT_FOUND] = true;
  return new ProtocolError(RESOURCE_NOT_FOUND_2025, message, data);
}

/** An outgoing message as the transport gets it, with a marked not-found error's code put back. */
export function restoreLegacyNotFound(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code: number; data?: Record<string | symbol, unknown> } }).error;
  if (error?.data?.[LEGACY_NOT_FOUND] !== true) return message;
  return { ...message, error: { ...error, code: RESOURCE_NOT_FOUND_2025 } } as JSONRPCMessage;
}
