// The baseline AXL client of the benchmarks: a bare HTTPS SOAP POST straight to the lab's AXL on a
// keep-alive connection, no SOAP library and no server in between (the honest floor to compare with).
import { Agent, request } from 'node:https';

export interface RawAxlTarget {
  labTrustPem: string;
  cucmHttpsPort: number;
  user: string;
  password: string;
}

export interface RawAxl {
  /** The answer's body on HTTP 200, else an error naming the operation and status. */
  post(operation: string, inner: string): Promise<string>;
  close(): void;
}

export function rawAxl(target: RawAxlTarget): RawAxl {
  const agent = new Agent({ keepAlive: true, ca: target.labTrustPem, maxSockets: 1 });
  const auth = `Basic ${Buffer.from(`${target.user}:${target.password}`).toString('base64')}`;
  const post = (operation: string, inner: string): Promise<string> => {
    const body = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/15.0"><soapenv:Body><ns:${operation}>${inner}</ns:${operation}></soapenv:Body></soapenv:Envelope>`;
    return new Promise((resolve, reject) => {
      const r = request(
        {
          host: '127.0.0.1',
          port: target.cucmHttpsPort,
          path: '/axl/',
          method: 'POST',
          agent,
          headers: {
            authorization: auth,
            'content-type': 'text/xml; charset=utf-8',
            soapaction: `"CUCM:DB ver=15.0 ${operation}"`,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(Buffer.concat(chunks).toString('utf8'))
              : reject(new Error(`${operation}: HTTP ${res.statusCode}`)),
          );
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  };
  return { post, close: () => agent.destroy() };
}
