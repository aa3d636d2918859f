// strong-soap, loaded on first use: it and its dependencies were about a quarter of the server's startup
// CPU, and only an AXL schema parse needs them. The first parse pays the load once; concurrent first
// parses share it; a failed load is an AXLError, and the next parse tries again.
import { createRequire } from 'node:module';
import { AXLError } from '../../../kernel/sdk/index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- strong-soap ships no types; its objects stay in the AXL schema code */
export interface SoapLibrary {
  soap: {
    createClient(
      wsdl: string,
      options: Record<string, unknown>,
      cb: (err: unknown, client: any) => void,
    ): void;
  };
  XMLHandler: new (schemas: any, options: any) => any;
  Client: { createSOAPEnvelope(prefix: string, uri: string): any };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The loader behind {@link loadSoapLibrary}, with the synchronous load given (a test hands a failing one). */
export function lazySoapLibrary(load: () => SoapLibrary): () => Promise<SoapLibrary> {
  let pending: Promise<SoapLibrary> | undefined;
  return () => {
    pending ??= new Promise<SoapLibrary>((resolve) => resolve(load())).catch((err: unknown) => {
      pending = undefined;
      const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0]?.slice(0, 200);
      throw new AXLError(`the AXL library (strong-soap) could not be loaded: ${reason}`, { cause: err });
    });
    return pending;
  };
}

const require = createRequire(import.meta.url);

export const loadSoapLibrary = lazySoapLibrary(() => ({
  soap: (require('strong-soap') as Pick<SoapLibrary, 'soap'>).soap,
  XMLHandler: require('strong-soap/src/parser/xmlHandler.js') as SoapLibrary['XMLHandler'],
  Client: require('strong-soap/src/client.js') as SoapLibrary['Client'],
}));
