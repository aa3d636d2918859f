// One parsed AXL schema: operation names, request descriptions, envelope building and answer parsing, all
// through strong-soap's descriptors so what is sent follows the WSDL and what comes back is read leniently.
import { BadRequestError, NotFoundError } from '../../../kernel/sdk/index.ts';
import { loadSoapLibrary, type SoapLibrary } from './soap-library.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- strong-soap ships no types; its objects stay inside this file */

const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

export interface FieldDescription {
  name: string;
  type?: string;
  /** True when the element may repeat (maxOccurs > 1). */
  many: boolean;
  nillable: boolean;
  /** Children, down to the depth asked; `truncated` marks where the description stops. */
  children?: FieldDescription[];
  truncated?: boolean;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * strong-soap fetches an import or include that names a URL with this client: none may be fetched (the
 * schema guard refuses such files before they are cached or parsed; this is the second lock).
 */
const NO_FETCH = {
  request(url: string, _data: unknown, callback: (err: Error) => void): void {
    callback(new Error(`the AXL schema refers to ${String(url).slice(0, 120)}; nothing is fetched`));
  },
};

/**
 * Parses a WSDL file with strong-soap (the first parse loads it). The 15.0 schema takes about a second:
 * callers cache the result.
 * A fresh WSDL cache per parse: strong-soap's own is process-wide and keyed by path, so it would hold
 * every parsed schema forever and hand back the old one after a new download replaced the files.
 */
export async function parseWsdl(wsdlPath: string, version: string): Promise<AxlSchema> {
  const lib = await loadSoapLibrary();
  return new Promise((resolve, reject) => {
    lib.soap.createClient(wsdlPath, { WSDL_CACHE: {}, httpClient: NO_FETCH }, (err, client) => {
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(new AxlSchema(version, client, lib));
    });
  });
}

export class AxlSchema {
  readonly namespace: string;
  private readonly ops: Record<string, any>;
  private readonly defs: any;
  private readonly handler: any;
  private sorted?: string[];
  private prepared = false;

  constructor(
    readonly version: string,
    private readonly client: any,
    private readonly lib: SoapLibrary,
  ) {
    this.defs = client.wsdl.definitions;
    this.namespace = this.defs.$targetNamespace as string;
    const service = Object.values(this.defs.services as Record<string, any>)[0];
    const port = Object.values((service?.ports ?? {}) as Record<string, any>)[0];
    this.ops = (port?.binding?.operations ?? {}) as Record<string, any>;
    this.handler = new lib.XMLHandler(this.defs.schemas, {});
  }

  /** Operation names, sorted. */
  operations(): string[] {
    this.sorted ??= Object.keys(this.ops).sort();
    return this.sorted;
  }

  has(operation: string): boolean {
    return Object.hasOwn(this.ops, operation);
  }

  /** The request fields of an operation, to `depth` levels, so an agent can build a call. */
  describe(operation: string, depth = 3): FieldDescription[] {
    return this.inputDescriptor(operation).elements.map((e: any) => describeElement(e, depth - 1));
  }

  /**
   * The SOAP envelope for a call. Fields the schema does not know are refused here: the node would
   * answer a vaguer 5003 fault, and an agent learns more from the list of valid names.
   */
  buildEnvelope(operation: string, args: Record<string, Json>): string {
    const input = this.inputDescriptor(operation);
    checkFields(input, args, operation);
    const nsContext = this.client.createNamespaceContext('soapenv', SOAP_NS);
    const envelope = this.lib.Client.createSOAPEnvelope('soapenv', SOAP_NS);
    this.handler.jsonToXml(envelope.body, nsContext, input, args);
    return envelope.doc.end({ pretty: false }) as string;
  }

  /** The JSON of a successful answer's body element (e.g. `{ return: { phone: ... } }`). */
  parseAnswer(operation: string, xml: string): Json {
    const d = this.descriptor(operation);
    const nsContext = this.client.createNamespaceContext('soapenv', SOAP_NS);
    const obj = this.handler.xmlToJson(nsContext, xml, d.outputEnvelope) as { Body?: Record<string, Json> };
    const body = obj.Body ?? {};
    const name = d.output?.body?.qname?.name as string | undefined;
    return (name && body[name]) ?? body[`${operation}Response`] ?? Object.values(body)[0] ?? null;
  }

  private descriptor(operation: string): any {
    const op = this.ops[operation];
    if (!op) {
      throw new NotFoundError(
        `AXL ${this.version} has no operation ${operation}; list them with a pattern to find the right name`,
      );
    }
    this.prepare();
    return op.describe(this.defs);
  }

  /**
   * Describes every complex type once, as strong-soap's own client does before each call: types reached
   * through extensions and references are only complete after this pass. About 75 ms for 15.0, once.
   */
  private prepare(): void {
    if (this.prepared) return;
    const schemas = (this.defs.schemas ?? {}) as Record<string, { complexTypes?: Record<string, any> }>;
    for (const pass of ['describe', 'describeChildren'] as const) {
      for (const schema of Object.values(schemas)) {
        for (const type of Object.values(schema.complexTypes ?? {})) type[pass](this.defs);
      }
    }
    this.prepared = true;
  }

  private inputDescriptor(operation: string): any {
    return this.descriptor(operation).input.body;
  }
}

function describeElement(e: any, depth: number): FieldDescription {
  const out: FieldDescription = {
    name: e.qname?.name as string,
    many: Boolean(e.isMany),
    nillable: Boolean(e.isNillable),
  };
  const type = e.type?.name as string | undefined;
  if (type) out.type = type;
  const kids = (e.elements ?? []) as any[];
  if (kids.length > 0) {
    if (depth > 0) out.children = kids.map((k) => describeElement(k, depth - 1));
    else out.truncated = true;
  }
  return out;
}

function checkFields(descriptor: any, value: Json, path: string): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) checkFields(descriptor, v, path);
    return;
  }
  const kids = (descriptor.elements ?? []) as any[];
  // An element with no declared children (xsd:any, or a simple type with attributes) is left to the node.
  if (kids.length === 0) return;
  const byName = new Map<string, any>(kids.map((k) => [k.qname?.name as string, k]));
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('$')) continue; // strong-soap's $attributes / $value / $xml
    const child = byName.get(key);
    if (!child) {
      const known = [...byName.keys()].slice(0, 40).join(', ');
      throw new BadRequestError(`${path}: unknown field "${key}"; the schema allows: ${known}`);
    }
    checkFields(child, v, `${path}.${key}`);
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */
