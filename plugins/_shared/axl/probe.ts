// The node's AXL version without any cached schema: what the toolkit download needs to know which
// folder `schema/current/` is. A getCCMVersion for 15.0 either answers (its version says the release)
// or gets HTTP 599 listing what the node serves.
import { AXLError } from '../../../kernel/sdk/index.ts';
import { parseSupportedVersions } from './axl-client.ts';
import { compareVersions } from './schema-cache.ts';
import type { NodeEndpoint, RetryPolicy } from './transport.ts';
import {
  busyAnswer,
  DEFAULT_RETRY,
  httpsExchange,
  ResponseTooLargeError,
  tlsAgent,
  withNetworkRetry,
} from './transport.ts';

export async function probeAxlVersion(
  node: NodeEndpoint & { retry?: RetryPolicy; timeoutMs?: number; signal?: AbortSignal },
  guess = '15.0',
): Promise<string> {
  const agent = tlsAgent(node);
  try {
    const answer = await withNetworkRetry(
      node,
      node.retry ?? DEFAULT_RETRY,
      (signal) =>
        httpsExchange(node, agent, {
          signal,
          service: 'axl',
          operation: 'getCCMVersion',
          method: 'POST',
          path: '/axl/',
          timeoutMs: node.timeoutMs ?? 30_000,
          maxBytes: 1024 * 1024,
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            soapaction: `"CUCM:DB ver=${guess} getCCMVersion"`,
          },
          body: `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/${guess}"><soapenv:Body><ns:getCCMVersion/></soapenv:Body></soapenv:Envelope>`,
        }),
      { busy: busyAnswer, ...(node.signal ? { signal: node.signal } : {}) },
    ).catch((err: unknown) => {
      if (err instanceof ResponseTooLargeError)
        throw new AXLError(`${node.host} answered getCCMVersion with over 1 MiB; refused unread`, {
          cause: err,
        });
      throw err;
    });
    const text = answer.body.toString('utf8');
    if (answer.status === 401 || answer.status === 403)
      throw new AXLError(`authentication to AXL on ${node.host} failed (HTTP ${answer.status})`);
    if (answer.status === 599) {
      const best = parseSupportedVersions(text)
        .filter((v) => /^\d+\.\d+$/.test(v))
        .sort(compareVersions)
        .at(-1);
      if (!best) throw new AXLError(`${node.host} answered HTTP 599 without a list of AXL versions`);
      return best;
    }
    const m = /<version>\s*(\d+)\.(\d+)/.exec(text);
    if (answer.status !== 200 || !m)
      throw new AXLError(`${node.host} did not report its AXL version (HTTP ${answer.status})`);
    return `${m[1]}.${m[2]}`;
  } finally {
    agent.destroy();
  }
}
