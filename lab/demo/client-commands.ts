// What `npm run demo` prints to connect each MCP client to the running demo: the tried configurations of
// docs/clients.md with the demo's URL, token file and CA certificate filled in. Every command is one line
// a user pastes into a POSIX shell; the token is read from its file when the command runs (never
// printed), so a renewed token is picked up by running the command again.
import { shellWord } from './shell-word.ts';

/** The versions these commands were tried with (the devDependencies the client tests run). */
export const MCP_REMOTE_SPEC = 'mcp-remote@0.15.1';
export const INSPECTOR_CLI_SPEC = '@modelcontextprotocol/inspector-cli@1.0.3';

export interface DemoClientTarget {
  /** The MCP endpoint, `https://host:port/mcp`. */
  mcpUrl: string;
  /** The client's startup token file (`clients/<name>/secrets/.token`). */
  tokenFile: string;
  /** The client's OAuth secret file (`clients/<name>/secrets/.client_secret`), for the login page. */
  clientSecretFile: string;
  /** The AUTH_CLIENTS name of that client. */
  clientName: string;
  /** The certificate a client trusts (`secrets/ca_cert.pem`). */
  caCert: string;
  /** A folder whose parent holds a package.json (the Inspector CLI 1.0.3 needs one, see below). */
  inspectorCwd: string;
  /** The name the server is added under in each client. */
  serverName?: string;
}

/** `"Authorization: Bearer $(cat <file>)"`: the header with the token read when the line runs. */
function bearerFromFile(tokenFile: string): string {
  return `"Authorization: Bearer $(cat ${shellWord(tokenFile)})"`;
}

/** Claude Code, startup token in a header (`claude mcp add --transport http`). */
export function claudeCodeHeaderCommand(t: DemoClientTarget): string {
  return `claude mcp add --transport http ${shellWord(t.serverName ?? 'uc-mcp')} ${shellWord(t.mcpUrl)} --header ${bearerFromFile(t.tokenFile)}`;
}

/** Claude Code with OAuth: no header; it registers itself and signs in through the browser. */
export function claudeCodeOAuthCommand(t: DemoClientTarget): string {
  return `claude mcp add --transport http ${shellWord(t.serverName ?? 'uc-mcp')} ${shellWord(t.mcpUrl)}`;
}

/**
 * The claude_desktop_config.json entry: Claude Desktop starts mcp-remote as a stdio server. It runs
 * under `sh` so that the token is read from its file at every start (a renewed token needs no edit),
 * passed in the environment (mcp-remote expands `${AUTH_HEADER}`; the token stays out of the process
 * list), and the CA is trusted through NODE_EXTRA_CA_CERTS (mcp-remote is a Node program).
 */
export function claudeDesktopEntry(t: DemoClientTarget): {
  command: string;
  args: string[];
  env: Record<string, string>;
} {
  const run = `AUTH_HEADER="Bearer $(cat ${shellWord(t.tokenFile)})" exec npx -y ${MCP_REMOTE_SPEC} ${shellWord(t.mcpUrl)} --header 'Authorization:\${AUTH_HEADER}'`;
  return { command: 'sh', args: ['-c', run], env: { NODE_EXTRA_CA_CERTS: t.caCert } };
}

/**
 * The Inspector CLI listing the tools. It runs from `inspectorCwd` in a subshell: version 1.0.3 looks
 * for its own package.json at `../package.json` relative to the working directory
 * (modelcontextprotocol/inspector#1334), so from most folders it stops before connecting.
 */
export function inspectorCliCommand(t: DemoClientTarget): string {
  return `(cd ${shellWord(t.inspectorCwd)} && NODE_EXTRA_CA_CERTS=${shellWord(t.caCert)} npx -y ${INSPECTOR_CLI_SPEC} --cli ${shellWord(t.mcpUrl)} --transport http --header ${bearerFromFile(t.tokenFile)} --method tools/list)`;
}

/** The block the demo prints, every line indented by two spaces. */
export function demoClientInstructions(t: DemoClientTarget): string {
  const name = t.serverName ?? 'uc-mcp';
  const desktop = JSON.stringify({ mcpServers: { [name]: claudeDesktopEntry(t) } }, null, 2)
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  return `Connect Claude Code (trust ${t.caCert} first: docs/clients.md says how):
  ${claudeCodeHeaderCommand(t)}
  or, to sign in through the browser as ${t.clientName} (secret: ${t.clientSecretFile}):
  ${claudeCodeOAuthCommand(t)}

Connect Claude Desktop (claude_desktop_config.json, through mcp-remote):
${desktop}

List the tools with the MCP Inspector CLI:
  ${inspectorCliCommand(t)}
  (the web Inspector, on Node 22.19 or later: NODE_EXTRA_CA_CERTS=${shellWord(t.caCert)} npx @modelcontextprotocol/inspector,
  then Streamable HTTP, URL ${t.mcpUrl}, header Authorization: Bearer <the token>)
`;
}
