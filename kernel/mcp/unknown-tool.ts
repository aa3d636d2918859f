import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { PluginRegistry } from '../plugins/registry.ts';

/**
 * Whether `name` is no tool of this server at all: neither registered (a tool the caller may not call,
 * or whose product is not licensed, is registered) nor withdrawn by an integrity check.
 */
export function isUnknownTool(registry: PluginRegistry, name: string): boolean {
  return !registry.tools.has(name) && registry.unavailable(name) === undefined;
}

/**
 * The answer to a call of an unknown tool: JSON-RPC -32602 (Invalid params), as the MCP specification
 * (2025-11-25 and 2026-07-28, tools, error handling) lists "Unknown tools" among protocol errors, not a
 * tool result. The runner has already audited the call (ACTIONS, ERROR, NOT_FOUND) under the name sent.
 */
export function unknownToolError(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `NOT_FOUND: no tool named ${name.slice(0, 80)}`);
}
