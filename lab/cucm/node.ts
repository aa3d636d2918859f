import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestPath, send } from '../http/request.ts';
import type { LabLog } from '../state/log.ts';
import type { AxlOperation } from './axl/operation.ts';
import { axlEndpoint } from './axl/endpoint.ts';
import { RIS_PATH, risEndpoint } from './ris/service.ts';
import type { CucmState } from './state.ts';
import { buildToolkitZip } from './toolkit/zip.ts';
import type { AxlVersionWording } from './versions.ts';

/** What a 15.0 node serves (see versions.ts). */
export const AXL_VERSIONS = ['12.0', '12.5', '14.0', '15.0'] as const;

export interface CucmHttpOptions {
  state: CucmState;
  log: LabLog;
  operations: AxlOperation[];
  /** AXL schemas served, oldest first; the newest is the toolkit's. Default AXL_VERSIONS. */
  axlVersions?: readonly string[];
  axlVersionWording?: AxlVersionWording;
  axlSchemaDir: string | undefined;
  maxResponseBytes: number;
  writeThrottle: { maxWrites: number; windowMs: number } | undefined;
  serviceTimeMs: number;
  risMaxDevicesPerAnswer: number;
  risShape: 'cucm15' | 'legacy';
  risFallbackRateLimit: number;
  publicAddress: () => string;
}

export function tomcatNotFound(res: ServerResponse): void {
  send(
    res,
    404,
    'text/html;charset=utf-8',
    '<html><head><title>Error report</title></head><body><h1>HTTP Status 404 - Not Found</h1></body></html>',
  );
}

/** Tomcat on the publisher: AXL, the toolkit download and RisPort70 on one HTTPS port. */
export function cucmHandler(
  o: CucmHttpOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { state, log } = o;
  const axl = axlEndpoint({
    node: state.node,
    db: state.db,
    log,
    operations: o.operations,
    versions: o.axlVersions ?? AXL_VERSIONS,
    ...(o.axlVersionWording ? { versionWording: o.axlVersionWording } : {}),
    maxResponseBytes: o.maxResponseBytes,
    serviceTimeMs: o.serviceTimeMs,
    ...(o.writeThrottle ? { writeThrottle: o.writeThrottle } : {}),
  });
  const ris = risEndpoint({
    node: state.node,
    db: state.db,
    ris: state.ris,
    log,
    maxDevicesPerAnswer: o.risMaxDevicesPerAnswer,
    shape: o.risShape,
    fallbackRateLimit: o.risFallbackRateLimit,
    publicAddress: o.publicAddress,
  });
  let zip: Promise<Buffer> | undefined;
  return async (req, res) => {
    const { path } = requestPath(req);
    if (path === '/axl' || path === '/axl/') return axl(req, res);
    if (path === RIS_PATH) return ris(req, res);
    if (path === '/plugins/axlsqltoolkit.zip' && (req.method === 'GET' || req.method === 'HEAD')) {
      zip ??= buildToolkitZip(o.axlSchemaDir, o.axlVersions?.at(-1));
      const body = await zip.catch((err: unknown) => {
        zip = undefined;
        throw err;
      });
      state.toolkitDownloads++;
      log.request({ node: state.node, service: 'toolkit', method: req.method, path, status: 200 });
      send(res, 200, 'application/zip', body, {
        'content-disposition': 'attachment; filename=axlsqltoolkit.zip',
      });
      return;
    }
    tomcatNotFound(res);
  };
}
