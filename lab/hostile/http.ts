// The hostile face of a node's web server: in front of the real handler, answers with the attack the
// node's switches name, and lets everything else through.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RIS_PATH } from '../cucm/ris/service.ts';
import type { RequestHandler } from '../http/listener.ts';
import { readBody, requestPath, send } from '../http/request.ts';
import { streamHugeAnswer } from './huge-answer.ts';
import type { HostileSwitches } from './switches.ts';
import { hostileToolkit } from './toolkit.ts';
import { axlAnswer, DEFAULT_XML_TARGET, risAnswer, risWsdl } from './xml.ts';

const TOOLKIT_PATH = '/plugins/axlsqltoolkit.zip';
/** The serviceability SOAP services (`/perfmonservice2/services/PerfmonService`...), on every VOS node. */
const SERVICEABILITY = /^\/[A-Za-z]+2?\/services\/[A-Za-z0-9]+$/;

/** `"CUCM:DB ver=15.0 getPhone"` → version and operation. */
function soapAction(req: IncomingMessage): { version: string; operation: string } {
  const m = /ver=(\d+\.\d+)\s+(\w+)/.exec(String(req.headers.soapaction ?? ''));
  return { version: m?.[1] ?? '15.0', operation: m?.[2] ?? 'getCCMVersion' };
}

async function drain(req: IncomingMessage): Promise<void> {
  await readBody(req, 1024 * 1024).catch(() => undefined);
}

export function hostileHandler(
  switches: HostileSwitches,
  node: string,
  inner: RequestHandler,
): RequestHandler {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const o = switches.for(node);
    if (!o.hugeAnswer && !o.xml && !o.toolkit) return inner(req, res);
    const { path, query } = requestPath(req);
    if (o.hugeAnswer && path.startsWith(o.hugeAnswer.pathPrefix ?? '/')) {
      await drain(req);
      const kind = path.startsWith('/vmrest') ? 'json' : path.startsWith('/CGI/') ? 'binary' : 'xml';
      return streamHugeAnswer(res, o.hugeAnswer, path === TOOLKIT_PATH ? 'binary' : kind, switches.stats);
    }
    const target = o.xmlTarget ?? DEFAULT_XML_TARGET;
    if (o.toolkit && path === TOOLKIT_PATH && req.method === 'GET') {
      const zip = await hostileToolkit(o.toolkit, o.xml ?? 'external-file', target);
      switches.stats.attacksServed++;
      send(res, 200, 'application/zip', zip);
      return;
    }
    if (
      o.xml &&
      !o.toolkit &&
      req.method === 'POST' &&
      (path === '/axl' || path === '/axl/' || path === RIS_PATH || SERVICEABILITY.test(path))
    ) {
      await drain(req);
      const { version, operation } = soapAction(req);
      const fault = o.xmlInFault === true;
      // A serviceability service gets RisPort's answer: what matters is its DOCTYPE, not its shape.
      const body =
        path === RIS_PATH || SERVICEABILITY.test(path)
          ? risAnswer(o.xml, target, fault)
          : axlAnswer(o.xml, target, version, operation, fault);
      switches.stats.attacksServed++;
      send(res, fault ? 500 : 200, 'text/xml; charset=utf-8', body);
      return;
    }
    if (o.xml && !o.toolkit && req.method === 'GET' && path === RIS_PATH && query.has('wsdl')) {
      switches.stats.attacksServed++;
      send(res, 200, 'text/xml; charset=utf-8', risWsdl(o.xml, target));
      return;
    }
    return inner(req, res);
  };
}
