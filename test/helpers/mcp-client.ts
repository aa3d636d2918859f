import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TestKernel } from './kernel.ts';

/** The startup token the server wrote for a client. */
export function startupToken(stateDir: string, client: string): string {
  return readFileSync(join(stateDir, 'clients', client, 'secrets', '.token'), 'utf8').trim();
}

export interface ConnectedClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Calls a tool and returns the raw result (isError results are returned, not thrown). */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content: { type: string; text?: string; data?: string; mimeType?: string }[];
  }>;
  close(): Promise<void>;
}

/**
 * A real MCP SDK client over Streamable HTTP to the test server, authenticated with a bearer token,
 * TLS verified against the server's own certificate.
 */
export async function connectMcp(
  k: Pick<TestKernel, 'url' | 'fetch'>,
  token: string,
  path = '/mcp',
): Promise<ConnectedClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${k.url}${path}`), {
    fetch: k.fetch as unknown as FetchLike,
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'uc-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as Awaited<ReturnType<ConnectedClient['call']>>,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/**
 * What a tools/call refused at the HTTP level (429 RATE_LIMITED) told the SDK client, which throws it
 * as a StreamableHTTPError quoting the JSON-RPC error; null for any other error.
 */
export function httpRefusal(
  err: unknown,
): { status: number; error: string; message: string; retry_after_s: number } | null {
  if (!(err instanceof StreamableHTTPError)) return null;
  const json = err.message.slice(err.message.indexOf('{'));
  try {
    const data = (
      JSON.parse(json) as { error?: { data?: { error: string; message: string; retry_after_s: number } } }
    ).error?.data;
    return data ? { status: err.code ?? 0, ...data } : null;
  } catch {
    return null;
  }
}
