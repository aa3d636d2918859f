// The RisPort70 "toolkit" is its WSDL: fetched from the node, checked to be RisPort70's, size-bounded,
// and written atomically into the schema cache. The connectivity probe uses the same fetch without the
// write: a GET of the WSDL is no SOAP operation and does not spend the cluster's per-minute budget.
import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import { PayloadTooLargeError, RISError, writeFileAtomic } from '../../../kernel/sdk/index.ts';
import type { NodeEndpoint, RetryPolicy } from '../../_shared/axl/transport.ts';
import { httpsExchange } from '../../_shared/axl/transport.ts';
import { retriedExchange } from '../../_shared/node/retried-exchange.ts';
import { RIS_PATH } from './constants.ts';
import type { RisSchemaCache } from './schema-cache.ts';
import type { RisWsdl } from './wsdl.ts';
import { readRisWsdl } from './wsdl.ts';

export interface FetchOptions {
  retry: RetryPolicy;
  timeoutMs: number;
  /** The real RISService70 WSDL is some tens of KB; anything near this bound is not it. */
  maxBytes: number;
  /** The tool call's: the fetch ends (socket closed) when it aborts. */
  signal?: AbortSignal;
}

export interface FetchedWsdl {
  text: string;
  wsdl: RisWsdl;
}

export async function fetchRisWsdl(node: NodeEndpoint, agent: Agent, o: FetchOptions): Promise<FetchedWsdl> {
  const where = `${node.host}:${node.port}`;
  const answer = await retriedExchange(
    node,
    o.retry,
    (signal) =>
      httpsExchange(node, agent, {
        service: 'ris',
        operation: `GET ${RIS_PATH}?wsdl`,
        method: 'GET',
        path: `${RIS_PATH}?wsdl`,
        timeoutMs: o.timeoutMs,
        maxBytes: o.maxBytes,
        signal,
      }),
    {
      signal: o.signal,
      tooLarge: () =>
        new PayloadTooLargeError(
          `the RisPort70 WSDL from ${where} is larger than ${o.maxBytes} bytes; refused`,
        ),
    },
  );
  if (answer.status === 401 || answer.status === 403) {
    throw new RISError(
      `authentication to RisPort70 on ${where} failed (HTTP ${answer.status}) while fetching its WSDL: check the stored AXL credential`,
    );
  }
  if (answer.status !== 200)
    throw new RISError(`${where} answered HTTP ${answer.status} for the RisPort70 WSDL`);
  const text = answer.body.toString('utf8');
  return { text, wsdl: readRisWsdl(text, where) };
}

export interface RisDownloadResult {
  /** The cache folder the WSDL went to (`70`: RisPort70 is versioned by its name). */
  schema_folder: string;
  operations: string[];
  bytes: number;
  sha256: string;
}

export async function downloadRisWsdl(
  node: NodeEndpoint,
  agent: Agent,
  cache: RisSchemaCache,
  o: FetchOptions,
): Promise<RisDownloadResult> {
  const { text, wsdl } = await fetchRisWsdl(node, agent, o);
  const bytes = Buffer.from(text, 'utf8');
  writeFileAtomic(cache.file, bytes);
  cache.forget();
  return {
    schema_folder: cache.folder,
    operations: wsdl.operations,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
