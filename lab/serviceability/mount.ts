// Mounting the serviceability services on a VOS node's HTTPS listener: every product's node (CUCM,
// IM&P, Unity Connection) serves them on Tomcat beside its own APIs. The product's handler answers
// whatever path no service claims.
import type { RequestHandler } from '../http/listener.ts';
import { requestPath } from '../http/request.ts';
import type { NodeSoapOptions, SoapServiceDef } from './service.ts';
import { soapServiceEndpoint } from './service.ts';

export interface NodeServiceability extends Omit<NodeSoapOptions, 'publicAddress'> {
  services: SoapServiceDef[];
}

/** `handler` with the node's serviceability services in front of it. */
export function withServiceability(
  handler: RequestHandler,
  o: NodeServiceability,
  publicAddress: () => string,
): RequestHandler {
  const byPath = new Map(o.services.map((s) => [s.path, soapServiceEndpoint(s, { ...o, publicAddress })]));
  return async (req, res) => {
    const endpoint = byPath.get(requestPath(req).path);
    if (endpoint) return endpoint(req, res);
    return handler(req, res);
  };
}
