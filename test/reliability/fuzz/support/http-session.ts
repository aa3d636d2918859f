import type { TestKernel } from '../../../helpers/kernel.ts';

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1.0.0' } },
};

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** Opens an MCP session with a raw initialize request and returns its id. */
export async function openRawSession(k: Pick<TestKernel, 'url' | 'fetch'>, token: string): Promise<string> {
  const res = await k.fetch(`${k.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
    body: JSON.stringify(INITIALIZE),
  });
  await res.text();
  const sid = res.headers.get('mcp-session-id');
  if (res.status !== 200 || !sid) throw new Error(`initialize answered ${res.status}`);
  return sid;
}

/** app.log records of failures nobody expected: an INTERNAL_ERROR answer, or a tool that blew up. */
export function unexpectedErrors(appLog: string): string[] {
  return appLog
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message?: string } })
    .filter((r) => r.level >= 50 && /unexpected/i.test(r.msg))
    .map((r) => `${r.msg}: ${r.err?.message ?? ''}`);
}
