// The node's AXL version without any cached schema: what the toolkit download needs to know which
// folder `schema/current/` is. A getCCMVersion for 15.0 either answers (its version says the release)
// or gets HTTP 599 listing what the node serves.
import { AXLError } from '../../../kernel/sdk/index.ts';
import { concreteVersions, parseSupportedVersions } from './version-list.ts';
import type { NodeEndpoint, RetryPolicy } from './transport.ts';
import { DEFAULT_RETRY, httpsExchange, tlsAgent } from './transport.ts';
import { retriedExchange } from '../node/retried-exchange.ts';

/** A node that keeps answering 599 is not asked forever. */
const MAX_GUESSES = 4;

/**
 * The node's newest AXL version. On HTTP 599 the node's list names it, possibly only as `15.x` or `15`:
 * the newest concrete version the list stands for is asked next (getCCMVersion then says the release).
 */
export async function probeAxlVersion(
  node: NodeEndpoint & { retry?: RetryPolicy; timeoutMs?: number; signal?: AbortSignal },
  guess = '15.0',
): Promise<string> {
  const agent = tlsAgent(node);
  const refused: string[] = [];
  try {
    for (let attempt = 1; ; attempt++) {
      const answer = await ask(node, agent, guess);
      const text = answer.body.toString('utf8');
      if (answer.status === 401 || answer.status === 403)
        throw new AXLError(`authentication to AXL on ${node.host} failed (HTTP ${answer.status})`);
      if (answer.status === 599) {
        refused.push(guess);
        const listed = parseSupportedVersions(text);
        const top = listed.at(-1);
        // The newest label names the version outright unless it is `N.x` or `N`: then ask once more.
        if (top && /^\d+\.\d+$/.test(top)) return top;
        const next = concreteVersions(listed).find((v) => !refused.includes(v));
        if (!next || attempt >= MAX_GUESSES)
          throw new AXLError(`${node.host} answered HTTP 599 without a list of AXL versions`);
        guess = next;
        continue;
      }
      const m = /<version>\s*(\d+)\.(\d+)/.exec(text);
      if (answer.status !== 200 || !m)
        throw new AXLError(`${node.host} did not report its AXL version (HTTP ${answer.status})`);
      return `${m[1]}.${m[2]}`;
    }
  } finally {
    agent.destroy();
  }
}

function ask(
  node: NodeEndpoint & { retry?: RetryPolicy; timeoutMs?: number; signal?: AbortSignal },
  agent: ReturnType<typeof tlsAgent>,
  guess: string,
): ReturnType<typeof httpsExchange> {
  return retriedExchange(
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
    {
      signal: node.signal,
      tooLarge: (cause) =>
        new AXLError(`${node.host} answered getCCMVersion with over 1 MiB; refused unread`, { cause }),
    },
  );
}
