// GET /CGI/Screenshot from one phone with HTTP Basic. HTTPS goes through the shared transport (TLS
// always verified against the pinned CA or certificate); most phones only serve plain HTTP, through
// the transport's httpExchange. Plain HTTP sends the Basic credentials in clear:
// that is the phone's own limitation, and the credential's scheme chooses HTTPS where the phone has it.
import type { CredentialSecret, NodeAddressGuard } from '../../../kernel/sdk/index.ts';
import {
  BadRequestError,
  ConnectivityError,
  CredentialError,
  PayloadTooLargeError,
} from '../../../kernel/sdk/index.ts';
import type { HttpAnswer, HttpRequest, NodeEndpoint, RetryPolicy } from '../../_shared/axl/transport.ts';
import {
  DEFAULT_RETRY,
  httpExchange,
  httpsExchange,
  retryAfterMs,
  tlsAgent,
} from '../../_shared/axl/transport.ts';
import { endpointOf, PORTS } from '../../_shared/node/endpoint.ts';
import { retriedExchange } from '../../_shared/node/retried-exchange.ts';

export type PhoneScheme = 'http' | 'https';

export interface PhoneEndpoint extends NodeEndpoint {
  scheme: PhoneScheme;
}

export const SCREENSHOT_PATH = '/CGI/Screenshot';
/** A 1280x800 24-bit BMP is 3 MiB; 8 MiB leaves room for any real screen and bounds a hostile answer. */
export const SCREENSHOT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Where the stored phone credential says the phone listens: its scheme (http unless https) and port;
 * its connections follow `addresses` (the kernel's node address policy).
 */
export function phoneEndpoint(
  host: string,
  secret: CredentialSecret,
  addresses?: NodeAddressGuard,
): PhoneEndpoint {
  const scheme: PhoneScheme = secret.options?.scheme === 'https' ? 'https' : 'http';
  const port = scheme === 'https' ? PORTS.phoneHttps : PORTS.phoneHttp;
  return { ...endpointOf(host, secret, port, addresses), scheme };
}

export interface ScreenshotFetchOptions {
  /**
   * Longest silence of the phone per attempt; network errors and busy answers (503, 429) are retried
   * with `retry`'s backoff, all within its time budget.
   */
  timeoutMs: number;
  retry?: RetryPolicy;
  maxBytes?: number;
  /** The tool call's: the request ends (socket closed) when it aborts. */
  signal?: AbortSignal;
}

/** The raw body of a successful /CGI/Screenshot; HTTP refusals become coded errors. */
export async function fetchScreenshot(node: PhoneEndpoint, o: ScreenshotFetchOptions): Promise<Buffer> {
  const maxBytes = o.maxBytes ?? SCREENSHOT_MAX_BYTES;
  const agent = node.scheme === 'https' ? tlsAgent(node) : undefined;
  let answer: HttpAnswer;
  try {
    answer = await retriedExchange(
      node,
      o.retry ?? DEFAULT_RETRY,
      (signal) => {
        const req: HttpRequest = {
          service: 'phone',
          method: 'GET',
          path: SCREENSHOT_PATH,
          timeoutMs: o.timeoutMs,
          maxBytes,
          signal,
        };
        return agent ? httpsExchange(node, agent, req) : httpExchange(node, req);
      },
      {
        signal: o.signal,
        tooLarge: (cause) =>
          new PayloadTooLargeError(`the screenshot of ${node.host} is larger than ${maxBytes} bytes`, {
            cause,
          }),
      },
    );
  } finally {
    agent?.destroy();
  }
  return checkStatus(node, answer);
}

function checkStatus(node: PhoneEndpoint, answer: HttpAnswer): Buffer {
  const { status } = answer;
  const where = `${node.scheme}://${node.host}:${node.port}`;
  if (status === 200) return answer.body;
  if (status === 401)
    throw new CredentialError(
      `the phone at ${where} refused the credentials (HTTP 401): the user must control the device and web access must be enabled`,
    );
  if (status === 403)
    throw new BadRequestError(
      `the phone at ${where} forbids access (HTTP 403): web access is disabled in its configuration`,
    );
  if (status === 404)
    throw new BadRequestError(
      `the phone at ${where} has no ${SCREENSHOT_PATH} (HTTP 404): web access disabled or no screenshot endpoint`,
    );
  if (status >= 300 && status < 400) {
    const location = String(answer.headers.location ?? '');
    // A phone that only serves HTTPS redirects there; the fix is the credential's scheme, not following.
    const hint = /^https:/i.test(location)
      ? '; it serves HTTPS: store the phone credential with scheme https'
      : '';
    throw new BadRequestError(`the phone at ${where} redirects (HTTP ${status})${hint}`);
  }
  if (status === 503 || status === 429) {
    const after = retryAfterMs(answer);
    throw new ConnectivityError(
      `the phone at ${where} failed to answer (HTTP ${status}): it is busy and stayed so through the retries; ${after === null ? 'retry later' : `it asks to retry in ${Math.ceil(after / 1000)} s`}`,
    );
  }
  if (status >= 500) throw new ConnectivityError(`the phone at ${where} failed to answer (HTTP ${status})`);
  throw new BadRequestError(`the phone at ${where} answered HTTP ${status} instead of a screenshot`);
}
