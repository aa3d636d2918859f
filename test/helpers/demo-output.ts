// Reading what `npm run demo` prints, for the tests that run its commands.
import assert from 'node:assert/strict';

export interface DesktopEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The claude_desktop_config.json block printed under "Connect Claude Desktop". */
export function desktopConfigOf(output: string): { mcpServers: Record<string, DesktopEntry> } {
  const start = output.indexOf('Connect Claude Desktop');
  assert.ok(start >= 0, `the Claude Desktop block is printed:\n${output}`);
  const rest = output.slice(output.indexOf('\n', start) + 1);
  return JSON.parse(rest.slice(0, rest.indexOf('\n\n'))) as { mcpServers: Record<string, DesktopEntry> };
}

/** The printed command line (without its indentation) that starts with `prefix`. */
export function printedCommand(output: string, prefix: string): string {
  const line = output.split('\n').find((l) => l.startsWith(`  ${prefix}`));
  assert.ok(line, `a line starting with ${prefix} is printed:\n${output}`);
  return line.slice(2);
}
