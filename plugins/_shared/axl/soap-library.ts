// strong-soap, loaded on first use: it and its dependencies were about a quarter of the server's startup
// CPU, and only an AXL schema parse needs them. The first parse pays the load once; concurrent first
// parses share it; a failed load is an AXLError, and the next parse tries again.
import { createRequire, Module } from 'node:module';
import { format } from 'node:util';
import { AXLError } from '../../../kernel/sdk/index.ts';
import type { DescriptorClasses } from './schema-digest.ts';

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
  NamespaceContext: new () => any;
  /** The descriptor classes and XSD built-ins, to revive a schema digest (schema-digest.ts). */
  descriptors: DescriptorClasses;
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

/**
 * strong-soap's message module (src/globalize.js) sets strong-globalize up with autonomous message
 * loading, which walks every installed package for message catalogues: about 40 % of loading
 * strong-soap. strong-soap calls only its `f` (format a message) and `warn`, with English text whose
 * `{{...}}` marks words not to translate; this stand-in gives the same strings (test/plugins/shared/axl/
 * soap-library.test.ts compares them) without the walk. Put in the module cache before strong-soap is
 * required, so its `require('../globalize')` finds it.
 */
export const soapMessages = {
  f: (text: string, ...args: unknown[]): string => format(text.replace(/\{\{(.*?)\}\}/g, '$1'), ...args),
  warn: (text: string, ...args: unknown[]): void => {
    process.stderr.write(`${soapMessages.f(text, ...args)}\n`);
  },
};

function installSoapMessages(): void {
  const path = require.resolve('strong-soap/src/globalize.js');
  if (require.cache[path]) return;
  const m = new Module(path);
  m.filename = path;
  m.loaded = true;
  m.exports = soapMessages;
  require.cache[path] = m;
}

export const loadSoapLibrary = lazySoapLibrary(() => {
  installSoapMessages();
  return soapModules();
});

const soapModules = (): SoapLibrary => ({
  soap: (require('strong-soap') as Pick<SoapLibrary, 'soap'>).soap,
  XMLHandler: require('strong-soap/src/parser/xmlHandler.js') as SoapLibrary['XMLHandler'],
  Client: require('strong-soap/src/client.js') as SoapLibrary['Client'],
  NamespaceContext: require('strong-soap/src/parser/nscontext.js') as SoapLibrary['NamespaceContext'],
  descriptors: {
    ...(require('strong-soap/src/parser/xsd/descriptor.js') as Omit<
      DescriptorClasses,
      'QName' | 'schemaTypes'
    >),
    QName: require('strong-soap/src/parser/qname.js') as DescriptorClasses['QName'],
    schemaTypes: (require('strong-soap/src/parser/helper.js') as { schemaTypes: Record<string, unknown> })
      .schemaTypes,
  },
});
