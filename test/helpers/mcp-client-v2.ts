import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import type { TestKernel } from './kernel.ts';

export interface ModernClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/**
 * The SDK v2 client pinned to MCP 2026-07-28 (stateless: no initialize, no session, the per-request
 * envelope and Mcp-Method headers on every request), over HTTPS with the bearer token and certificate
 * verification on. `fetch` trusts what the caller's fetch trusts (the server certificate or its CA).
 */
export async function connectModern(
  k: Pick<TestKernel, 'url' | 'fetch'>,
  token: string,
  opts: { path?: string; fetch?: FetchLike } = {},
): Promise<ModernClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${k.url}${opts.path ?? '/mcp'}`), {
    fetch: opts.fetch ?? (k.fetch as unknown as FetchLike),
    authProvider: { token: () => Promise.resolve(token) },
  });
  const client = new Client(
    { name: 'uc-mcp-test-modern', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}
