// Shared by the lab tests: a lab on 127.0.0.1 with its state under .tmp/, and HTTPS that trusts only the lab CA.
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join, resolve } from 'node:path';
import { labTrustedPem, startLab } from '../../lab/index.ts';
import type { Lab, LabOptions } from '../../lab/index.ts';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const stateDir = join(repoRoot, '.tmp', 'lab-state');

/** The real Cisco schemas beside the checkout, or undefined (a fresh clone does not have them). */
export function fixture(...parts: string[]): string | undefined {
  const path = resolve(repoRoot, '..', 'shared', 'fixtures', ...parts);
  return existsSync(path) ? path : undefined;
}

export function startTestLab(options: LabOptions = {}): Promise<Lab> {
  return startLab({ stateDir, loginDelayMs: 50, ...options });
}

/** The phones (SEP devices) the lab's RIS shows Registered on `node`: what its PerfMon counts. */
export function registeredPhones(lab: Lab, node: string): number {
  return [...lab.state.cucm.ris.registrations].filter(
    ([name, list]) =>
      name.startsWith('SEP') && list.some((r) => r.node === node && r.status === 'Registered'),
  ).length;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface HttpCall {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** PEM of the CA to trust; HTTPS calls always verify. */
  ca?: string;
  auth?: { user: string; password: string };
}

export function call(url: string, c: HttpCall = {}): Promise<HttpAnswer> {
  const u = new URL(url);
  const headers: Record<string, string> = { ...c.headers };
  if (c.auth)
    headers.authorization = `Basic ${Buffer.from(`${c.auth.user}:${c.auth.password}`).toString('base64')}`;
  if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body));
  return new Promise((resolvePromise, reject) => {
    const options = {
      method: c.method ?? (c.body === undefined ? 'GET' : 'POST'),
      headers,
      agent: false as const,
    };
    const done = (res: IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolvePromise({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text: body.toString('utf8'),
        });
      });
      res.on('error', reject);
    };
    const req =
      u.protocol === 'https:'
        ? httpsRequest(u, { ...options, ...(c.ca ? { ca: c.ca } : {}) }, done)
        : httpRequest(u, options, done);
    req.on('error', reject);
    if (c.body !== undefined) req.write(c.body);
    req.end();
  });
}

export function soapEnvelope(
  operation: string,
  inner: string,
  namespace = 'http://www.cisco.com/AXL/API/15.0',
): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="${namespace}"><soapenv:Body><ns:${operation}>${inner}</ns:${operation}></soapenv:Body></soapenv:Envelope>`;
}

/** Posts one AXL operation to a node's /axl/ with the SOAPAction a real client sends. */
export function axl(
  lab: Lab,
  operation: string,
  inner: string,
  o: { node?: 'cucm' | 'imp'; version?: string; auth?: { user: string; password: string } } = {},
): Promise<HttpAnswer> {
  const node = lab.info.nodes.find((n) => n.product === (o.node ?? 'cucm'));
  if (!node?.urls.axl || !node.credentials.axl) throw new Error('no AXL node');
  const version = o.version ?? '15.0';
  return call(node.urls.axl, {
    body: soapEnvelope(operation, inner, `http://www.cisco.com/AXL/API/${version}`),
    headers: {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"CUCM:DB ver=${version} ${operation}"`,
    },
    ca: labTrustedPem(lab.info),
    auth: o.auth ?? node.credentials.axl,
  });
}
