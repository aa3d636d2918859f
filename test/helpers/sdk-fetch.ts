import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestInit as UndiciRequestInit } from 'undici';
import type { TestKernel } from './kernel.ts';

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The test kernel's pinned fetch (certificate verification on, trusting only the server's own
 * certificate) in the shape the MCP SDK expects: it checks `instanceof Response` against the global
 * class, so the answer is rebuilt as one.
 */
export function sdkFetch(k: TestKernel): FetchLike {
  return async (url, init) => {
    const res = await k.fetch(url, init as UndiciRequestInit);
    const body = NULL_BODY.has(res.status) ? null : await res.arrayBuffer();
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: [...res.headers.entries()],
    });
  };
}
