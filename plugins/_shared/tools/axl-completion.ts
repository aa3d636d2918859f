import type { AxlState } from './plugin-state.ts';

/**
 * The plugin's `completeArgument` for AXL: an argument named `operation` gets the operations of the
 * newest AXL schema in the local cache (what list_axl_operations lists), by prefix, case-insensitive;
 * nothing before a toolkit was downloaded. Every other argument name: nothing.
 */
export async function completeAxlArgument(
  argument: string,
  prefix: string,
  shared: AxlState,
): Promise<string[]> {
  if (argument !== 'operation') return [];
  const version = shared.axl.cache.versions().at(-1);
  if (version === undefined) return [];
  const lower = prefix.toLowerCase();
  return (await shared.axl.cache.operations(version)).filter((op) => op.toLowerCase().startsWith(lower));
}
