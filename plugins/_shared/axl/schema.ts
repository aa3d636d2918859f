// One parsed AXL schema: operation names, request descriptions, envelope building and answer parsing, all
// through strong-soap's descriptors so what is sent follows the WSDL and what comes back is read leniently.
import { BadRequestError, NotFoundError } from '../../../kernel/sdk/index.ts';
import type { DigestSource, SchemaDigest } from './schema-digest.ts';
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
  /** From the XSD: minOccurs ≥ 1 and not an alternative of a choice. */
  required?: boolean;
  /** An alternative of an xsd:choice: its alternatives, and whether one of them must be sent. */
  choice?: { of: string[]; required: boolean };
  /** The values an enumerated type allows (the first ones when `enumeration_total` says more). */
  enumeration?: string[];
  enumeration_total?: number;
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
 * callers cache the result, and AxlSchemaCache writes a digest of it for the next process.
 * A fresh WSDL cache per parse: strong-soap's own is process-wide and keyed by path, so it would hold
 * every parsed schema forever and hand back the old one after a new download replaced the files.
 */
export async function parseWsdl(wsdlPath: string, version: string): Promise<AxlSchema> {
  const lib = await loadSoapLibrary();
  return new Promise((resolve, reject) => {
    lib.soap.createClient(wsdlPath, { WSDL_CACHE: {}, httpClient: NO_FETCH }, (err, client) => {
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(new AxlSchema(version, new ParsedModel(client), lib));
    });
  });
}

/** A schema from its digest: no WSDL parse, the descriptors revived from the digest's graph. */
export function schemaFromDigest(digest: SchemaDigest, lib: SoapLibrary): AxlSchema {
  return new AxlSchema(digest.index.version, new DigestModel(digest, lib), lib);
}

interface OperationDescriptor {
  input: { body: any };
  output: { body: any };
  outputEnvelope: any;
}

/** Where an AxlSchema reads operations from: a strong-soap parse, or a digest of one. */
interface SchemaModel {
  readonly namespace: string;
  readonly xmlns: Record<string, string>;
  /** What XMLHandler looks xsi:type names up in. */
  readonly schemas: any;
  names(): string[];
  has(operation: string): boolean;
  descriptor(operation: string): OperationDescriptor;
}

class ParsedModel implements SchemaModel {
  readonly namespace: string;
  readonly xmlns: Record<string, string>;
  readonly schemas: any;
  private readonly defs: any;
  private readonly ops: Record<string, any>;
  private prepared = false;

  constructor(client: any) {
    this.defs = client.wsdl.definitions;
    this.namespace = this.defs.$targetNamespace as string;
    this.xmlns = (this.defs.xmlns ?? {}) as Record<string, string>;
    this.schemas = this.defs.schemas;
    const service = Object.values(this.defs.services as Record<string, any>)[0];
    const port = Object.values((service?.ports ?? {}) as Record<string, any>)[0];
    this.ops = (port?.binding?.operations ?? {}) as Record<string, any>;
  }

  names(): string[] {
    return Object.keys(this.ops);
  }

  has(operation: string): boolean {
    return Object.hasOwn(this.ops, operation);
  }

  descriptor(operation: string): OperationDescriptor {
    this.prepare();
    return (this.ops[operation] as { describe(defs: unknown): OperationDescriptor }).describe(this.defs);
  }

  /** `{nsURI}name` → descriptor of every complex type (for the digest). */
  complexTypes(): Map<string, any> {
    this.prepare();
    const out = new Map<string, any>();
    for (const [ns, schema] of Object.entries(this.defs.schemas as Record<string, any>)) {
      for (const [name, type] of Object.entries((schema.complexTypes ?? {}) as Record<string, any>)) {
        if (type.descriptor) out.set(`{${ns}}${name}`, type.descriptor);
      }
    }
    return out;
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
}

class DigestModel implements SchemaModel {
  readonly namespace: string;
  readonly xmlns: Record<string, string>;
  private schemasByNs?: any;
  private names_?: Set<string>;

  constructor(
    private readonly digest: SchemaDigest,
    private readonly lib: SoapLibrary,
  ) {
    this.namespace = digest.index.namespace;
    this.xmlns = digest.index.xmlns;
  }

  /** The complex types by namespace, shaped as strong-soap's schemas for XMLHandler's xsi:type lookups. */
  get schemas(): any {
    if (this.schemasByNs) return this.schemasByNs;
    const { types, nodes } = this.digest.graph(this.lib.descriptors);
    const out: Record<
      string,
      { complexTypes: Record<string, unknown>; simpleTypes: Record<string, unknown> }
    > = {};
    for (const [key, ref] of Object.entries(types)) {
      const m = /^\{([^}]*)\}(.*)$/.exec(key);
      if (!m) continue;
      const ns = (out[m[1] as string] ??= { complexTypes: {}, simpleTypes: {} });
      ns.complexTypes[m[2] as string] = { describe: () => nodes[ref] };
    }
    this.schemasByNs = out;
    return out;
  }

  names(): string[] {
    return this.digest.index.operations;
  }

  has(operation: string): boolean {
    this.names_ ??= new Set(this.digest.index.operations);
    return this.names_.has(operation);
  }

  descriptor(operation: string): OperationDescriptor {
    const { ops, nodes } = this.digest.graph(this.lib.descriptors);
    const [input, output, envelope] = ops[operation] as [number, number, number];
    return {
      input: { body: nodes[input] },
      output: { body: nodes[output] },
      outputEnvelope: nodes[envelope],
    };
  }
}

export class AxlSchema {
  readonly namespace: string;
  /** Where it came from: a WSDL parse, or the digest of an earlier one. */
  readonly source: 'parse' | 'digest';
  private sorted?: string[];
  private handlerOf?: any;

  constructor(
    readonly version: string,
    private readonly model: SchemaModel,
    private readonly lib: SoapLibrary,
  ) {
    this.namespace = model.namespace;
    this.source = model instanceof DigestModel ? 'digest' : 'parse';
  }

  /** Operation names, sorted. */
  operations(): string[] {
    this.sorted ??= [...this.model.names()].sort();
    return this.sorted;
  }

  has(operation: string): boolean {
    return this.model.has(operation);
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
    const envelope = this.lib.Client.createSOAPEnvelope('soapenv', SOAP_NS);
    this.handler.jsonToXml(envelope.body, this.nsContext(), input, args);
    return envelope.doc.end({ pretty: false }) as string;
  }

  /** The JSON of a successful answer's body element (e.g. `{ return: { phone: ... } }`). */
  parseAnswer(operation: string, xml: string): Json {
    const d = this.descriptor(operation);
    const obj = this.handler.xmlToJson(this.nsContext(), xml, d.outputEnvelope) as {
      Body?: Record<string, Json>;
    };
    const body = obj.Body ?? {};
    const name = d.output?.body?.qname?.name as string | undefined;
    return (name && body[name]) ?? body[`${operation}Response`] ?? Object.values(body)[0] ?? null;
  }

  /** What a digest is written from: a parsed schema's descriptors (undefined for a digest-backed one). */
  digestSource(): DigestSource | undefined {
    const m = this.model;
    if (!(m instanceof ParsedModel)) return undefined;
    return {
      version: this.version,
      namespace: m.namespace,
      xmlns: m.xmlns,
      operations: m.names(),
      descriptor: (op) => m.descriptor(op),
      complexTypes: () => m.complexTypes(),
    };
  }

  private get handler(): any {
    this.handlerOf ??= new this.lib.XMLHandler(this.model.schemas, {});
    return this.handlerOf;
  }

  /** strong-soap's client.createNamespaceContext, from the WSDL's declarations (the same for a digest). */
  private nsContext(): any {
    const ctx = new this.lib.NamespaceContext();
    ctx.declareNamespace('soapenv', SOAP_NS);
    for (const [prefix, uri] of Object.entries(this.model.xmlns)) {
      if (prefix === '' || SKIPPED_NS.has(uri) || SKIPPED_NS_PREFIX.some((p) => uri.includes(p))) continue;
      ctx.addNamespace(prefix, uri);
    }
    return ctx;
  }

  private descriptor(operation: string): OperationDescriptor {
    if (!this.model.has(operation)) {
      throw new NotFoundError(
        `AXL ${this.version} has no operation ${operation}; list them with a pattern to find the right name`,
      );
    }
    return this.model.descriptor(operation);
  }

  private inputDescriptor(operation: string): any {
    return this.descriptor(operation).input.body;
  }
}

/** Namespaces strong-soap's createNamespaceContext leaves out of an envelope's context. */
const SKIPPED_NS = new Set([
  'http://xml.apache.org/xml-soap',
  'http://schemas.xmlsoap.org/wsdl/',
  'http://schemas.xmlsoap.org/wsdl/soap/',
  'http://schemas.xmlsoap.org/wsdl/soap12/',
  'http://schemas.xmlsoap.org/soap/encoding/',
  'http://www.w3.org/2001/XMLSchema',
]);
const SKIPPED_NS_PREFIX = ['http://schemas.xmlsoap.org/', 'http://www.w3.org/', 'http://xml.apache.org/'];

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
