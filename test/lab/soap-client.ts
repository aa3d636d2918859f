// strong-soap, the independent client: promisified calls with HTTPS pinned to the lab CA.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface SoapClient {
  setEndpoint(url: string): void;
  setSecurity(security: unknown): void;
  describe(): Record<string, Record<string, Record<string, unknown>>>;
  [operation: string]: unknown;
}

interface StrongSoap {
  createClient(
    wsdl: string,
    options: Record<string, unknown>,
    cb: (err: unknown, client: SoapClient) => void,
  ): void;
  BasicAuthSecurity: new (user: string, password: string) => unknown;
}

const { soap } = require('strong-soap') as { soap: StrongSoap };

export interface Lab15Client {
  call(operation: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  operations(): string[];
}

export function soapClient(
  wsdlPath: string,
  endpoint: string,
  ca: string,
  auth: { user: string; password: string },
): Promise<Lab15Client> {
  return new Promise((resolve, reject) => {
    soap.createClient(wsdlPath, {}, (err, client) => {
      if (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      client.setEndpoint(endpoint);
      client.setSecurity(new soap.BasicAuthSecurity(auth.user, auth.password));
      resolve({
        operations: () => Object.keys(Object.values(Object.values(client.describe())[0] ?? {})[0] ?? {}),
        call: (operation, args) =>
          new Promise((res, rej) => {
            const fn = client[operation] as (
              a: unknown,
              cb: (e: unknown, r: Record<string, unknown>) => void,
              o: unknown,
            ) => void;
            fn.call(
              client,
              args,
              (e, result) => (e ? rej(e instanceof Error ? e : new Error(JSON.stringify(e))) : res(result)),
              { ca, agent: false },
            );
          }),
      });
    });
  });
}
