/**
 * The toolsets a client may ask for, on a connection or in its client.json (github-mcp-server's manner).
 * Their members are in toolsets.ts; the names live here so that settings can check them without the
 * plugin registry.
 */
export const TOOLSET_NAMES = ['cucm', 'imp', 'cuc', 'reports', 'audit', 'credentials'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];
