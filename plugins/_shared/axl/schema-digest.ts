// The digest of a parsed AXL schema: what the product needs of it (operation names, the namespace, and
// strong-soap's descriptors of every operation and complex type), written once after a parse so that a
// fresh process lists operations in milliseconds and builds envelopes without parsing the 4.5 MB WSDL
// again (about a second). Keyed by the SHA-256 of the schema files: a new download is a new key.
//
// Three lines: a head (format, key, the SHA-256 of each following line), the index (version, namespace,
// xmlns, operations), the descriptor graph. Each line is checked against its hash before it is used, so
// a damaged file is refused (and rebuilt from the schema), never half-read.
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/* eslint-disable @typescript-eslint/no-explicit-any -- strong-soap's descriptors are untyped; they stay inside the AXL schema code */

export const DIGEST_FORMAT = 1;

/** The folder of the digests, beside the version folders (`versions()` ignores dot folders). */
export function digestDir(axlRoot: string): string {
  return join(axlRoot, '.digest');
}

/** SHA-256 over each file's name, length and bytes, in order: the key a digest is valid for. */
export function schemaKey(files: readonly { name: string; bytes: Buffer }[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(`${f.name}\0${f.bytes.length}\0`).update(f.bytes);
  return h.digest('hex');
}

export interface DigestIndex {
  version: string;
  namespace: string;
  /** The WSDL's namespace declarations (prefix → URI), for the envelope's namespace context. */
  xmlns: Record<string, string>;
  /** Operation names, sorted. */
  operations: string[];
}

/** The third line: the descriptors, apart from the index so that listing operations does not parse them. */
interface DigestGraph {
  /** Per operation: graph indices of its input body, output body and output envelope descriptors. */
  ops: Record<string, [number, number, number]>;
  /** Complex types by `{nsURI}name`: graph index of their descriptor (xsi:type lookups). */
  types: Record<string, number>;
  nodes: (Kind | Enc)[][];
}

/** A digest's descriptors, revived. */
export interface RevivedGraph {
  ops: Record<string, [number, number, number]>;
  types: Record<string, number>;
  nodes: any[];
}

interface Head {
  format: number;
  key: string;
  index: string;
  graph: string;
  /** The schema files as they were when `key` was computed from them. */
  stamps: FileStamp[];
}

/**
 * What identifies a file's content without reading it: a file written since (by a download, an
 * editor, a restore) has another inode, size or change time; the change time cannot be set back by
 * a program. When every stamp matches, the files are those the key was computed from, and hashing
 * 4.5 MB on every start is spared; any difference and the key is computed from the bytes again.
 */
export interface FileStamp {
  name: string;
  size: number;
  ino: number;
  mtimeNs: string;
  ctimeNs: string;
}

export function fileStamps(dir: string, names: readonly string[]): FileStamp[] {
  return names.map((name) => {
    const st = statSync(join(dir, name), { bigint: true });
    return {
      name,
      size: Number(st.size),
      ino: Number(st.ino),
      mtimeNs: String(st.mtimeNs),
      ctimeNs: String(st.ctimeNs),
    };
  });
}

export function sameStamps(a: readonly FileStamp[], b: readonly FileStamp[]): boolean {
  return a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));
}

/** The classes a revived graph is made of (from strong-soap, so `instanceof` checks in it hold). */
export interface DescriptorClasses {
  ElementDescriptor: new (...a: any[]) => any;
  TypeDescriptor: new (...a: any[]) => any;
  AttributeDescriptor: new (...a: any[]) => any;
  QName: new (...a: any[]) => any;
  /** strong-soap's XSD built-in types (name → the function it converts values with). */
  schemaTypes: Record<string, unknown>;
}

/** What a parsed schema hands the digest: its operation descriptors and complex types. */
export interface DigestSource {
  version: string;
  namespace: string;
  xmlns: Record<string, string>;
  operations: string[];
  descriptor(operation: string): { input: { body: any }; output: { body: any }; outputEnvelope: any };
  /** `{nsURI}name` → complex type descriptor. */
  complexTypes(): Map<string, any>;
}

type Kind = 'E' | 'T' | 'A' | 'Q' | 'O' | 'R';
type Enc = string | boolean | null | number | { f: string } | { n: number };

/** Thrown when a descriptor holds something the digest cannot carry: no digest is written then. */
export class NotDigestible extends Error {}

/** Operations described between two yields to the event loop while a digest is encoded. */
const OPS_PER_SLICE = 20;

/**
 * Serialises a parsed schema's descriptors; throws NotDigestible rather than write a lossy digest.
 * Describing all of the 15.0 schema's operations takes about a second of CPU: it runs in slices of
 * OPS_PER_SLICE operations, yielding between them, so that the server answers other calls meanwhile.
 */
export async function encodeDigest(
  src: DigestSource,
  key: string,
  stamps: FileStamp[],
  cls: DescriptorClasses,
): Promise<string> {
  const kinds = new Map<unknown, Kind>([
    [cls.ElementDescriptor.prototype, 'E'],
    [cls.TypeDescriptor.prototype, 'T'],
    [cls.AttributeDescriptor.prototype, 'A'],
    [cls.QName.prototype, 'Q'],
    [Object.prototype, 'O'],
    [Array.prototype, 'R'],
  ]);
  const fnName = functionNames(cls);
  const ids = new Map<object, number>();
  const qnames = new Map<string, number>();
  const nodes: (Kind | Enc)[][] = [];
  const enc = (v: unknown): Enc | undefined => {
    if (v === undefined) return undefined;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return { n: v };
    if (typeof v === 'function') {
      const name = fnName.get(v);
      if (!name) throw new NotDigestible(`a descriptor holds an unknown function ${v.name}`);
      return { f: name };
    }
    if (typeof v !== 'object') throw new NotDigestible(`a descriptor holds a ${typeof v}`);
    const known = ids.get(v);
    if (known !== undefined) return known;
    const kind = kinds.get(Object.getPrototypeOf(v));
    if (!kind)
      throw new NotDigestible(`a descriptor holds a ${(v as object).constructor?.name ?? 'strange'} object`);
    // QNames are values: one node per distinct name.
    const qkey = kind === 'Q' ? qnameKey(v) : undefined;
    if (qkey !== undefined) {
      const q = qnames.get(qkey);
      if (q !== undefined) return q;
    }
    const id = nodes.length;
    ids.set(v, id);
    if (qkey !== undefined) qnames.set(qkey, id);
    const node: (Kind | Enc)[] = [kind];
    nodes.push(node);
    if (kind === 'R') {
      for (const item of v as unknown[]) node.push(enc(item) ?? null);
    } else {
      for (const [k, val] of Object.entries(v)) {
        // An anonymous simple type (strong-soap's parser object) serves only its restriction check,
        // which this product does not enable.
        if (k === 'anonymous' && kind === 'Q') continue;
        const e = enc(val);
        if (e !== undefined) node.push(k, e);
      }
    }
    return id;
  };
  const ops: DigestGraph['ops'] = {};
  for (const [i, name] of src.operations.entries()) {
    if (i % OPS_PER_SLICE === OPS_PER_SLICE - 1) await new Promise((r) => setImmediate(r));
    const d = src.descriptor(name);
    ops[name] = [enc(d.input.body), enc(d.output.body), enc(d.outputEnvelope)].map((x) =>
      typeof x === 'number' ? x : -1,
    ) as [number, number, number];
  }
  const types: Record<string, number> = {};
  for (const [name, t] of src.complexTypes()) {
    const r = enc(t);
    if (typeof r === 'number') types[name] = r;
  }
  const index: DigestIndex = {
    version: src.version,
    namespace: src.namespace,
    xmlns: src.xmlns,
    operations: [...src.operations].sort(),
  };
  const indexLine = JSON.stringify(index);
  const graphLine = JSON.stringify({ ops, types, nodes } satisfies DigestGraph);
  const head: Head = {
    format: DIGEST_FORMAT,
    key,
    index: sha256(indexLine),
    graph: sha256(graphLine),
    stamps,
  };
  return `${JSON.stringify(head)}\n${indexLine}\n${graphLine}\n`;
}

/** How much of a digest is read at a time while looking for the end of its index. */
const CHUNK = 64 * 1024;

/** A digest file with its head and index checked; its graph is read and checked by `load()`. */
export class SchemaDigest {
  private graphBytes?: Buffer;
  private revived?: RevivedGraph;

  private constructor(
    readonly index: DigestIndex,
    readonly stamps: FileStamp[],
    private readonly path: string,
    private readonly graphOffset: number,
    private readonly graphHash: string,
  ) {}

  /**
   * The digest at `path` if its head and index are whole and made for `key` and `version`; undefined
   * when absent, damaged or stale (the caller then parses the schema and writes a new one). Reads only
   * the head and the index, not the graph.
   */
  static open(path: string, key: string, version: string): SchemaDigest | undefined {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return undefined;
    }
    try {
      const parts: Buffer[] = [];
      let size = 0;
      let a = -1;
      let b = -1;
      for (;;) {
        const chunk = Buffer.allocUnsafe(CHUNK);
        const n = readSync(fd, chunk, 0, CHUNK, size);
        if (n === 0) return undefined;
        parts.push(chunk.subarray(0, n));
        const from = size;
        size += n;
        const all = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
        if (a < 0) a = all.indexOf(0x0a, 0);
        if (a >= 0) b = all.indexOf(0x0a, Math.max(a + 1, from));
        if (b >= 0) {
          const head = JSON.parse(all.toString('utf8', 0, a)) as Head;
          if (head.format !== DIGEST_FORMAT || head.key !== key) return undefined;
          const indexBytes = all.subarray(a + 1, b);
          if (sha256(indexBytes) !== head.index) return undefined;
          const index = JSON.parse(indexBytes.toString('utf8')) as DigestIndex;
          if (index.version !== version || !Array.isArray(index.operations)) return undefined;
          return new SchemaDigest(
            index,
            Array.isArray(head.stamps) ? head.stamps : [],
            path,
            b + 1,
            head.graph,
          );
        }
      }
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Reads the descriptor graph and checks it against the head's hash: false when it is damaged or the
   * file changed since `open` (the caller rebuilds). Parsed later, on first use.
   */
  load(): boolean {
    try {
      const bytes = readFileSync(this.path).subarray(this.graphOffset);
      const end = bytes.at(-1) === 0x0a ? bytes.length - 1 : bytes.length;
      const graph = bytes.subarray(0, end);
      if (sha256(graph) !== this.graphHash) return false;
      this.graphBytes = graph;
      return true;
    } catch {
      return false;
    }
  }

  /** The descriptor graph, revived with strong-soap's classes (after a successful `load()`). */
  graph(cls: DescriptorClasses): RevivedGraph {
    if (this.revived) return this.revived;
    if (!this.graphBytes) throw new Error('the AXL schema digest was not loaded');
    const g = JSON.parse(this.graphBytes.toString('utf8')) as DigestGraph;
    this.revived = { ops: g.ops, types: g.types, nodes: revive(g.nodes, cls) };
    this.graphBytes = undefined;
    return this.revived;
  }
}

/** The key in a digest file's name (`<version>-<key>.json`), or undefined for any other file. */
export function digestKeys(axlRoot: string, version: string): string[] {
  let names: string[];
  try {
    names = readdirSync(digestDir(axlRoot));
  } catch {
    return [];
  }
  const prefix = `${version}-`;
  return names
    .filter((n) => n.startsWith(prefix) && /^[0-9a-f]{64}\.json$/.test(n.slice(prefix.length)))
    .map((n) => n.slice(prefix.length, -'.json'.length));
}

/** The digest file of `version` for `key`. */
export function digestPath(axlRoot: string, version: string, key: string): string {
  return join(digestDir(axlRoot), `${version}-${key}.json`);
}

/** Writes a digest atomically (a reader sees the old file or the new one) and drops older ones of the version. */
export function writeDigest(axlRoot: string, version: string, key: string, text: string): void {
  const dir = digestDir(axlRoot);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = digestPath(axlRoot, version, key);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
  for (const f of readdirSync(dir)) {
    if (f.startsWith(`${version}-`) && join(dir, f) !== path) rmSync(join(dir, f), { force: true });
  }
}

function revive(nodes: (Kind | Enc)[][], cls: DescriptorClasses): any[] {
  const proto: Record<Kind, object> = {
    E: cls.ElementDescriptor.prototype as object,
    T: cls.TypeDescriptor.prototype as object,
    A: cls.AttributeDescriptor.prototype as object,
    Q: cls.QName.prototype as object,
    O: Object.prototype,
    R: Array.prototype,
  };
  const fns = new Map([...functionNames(cls)].map(([f, n]) => [n, f]));
  const out = nodes.map((n) => (n[0] === 'R' ? [] : (Object.create(proto[n[0] as Kind]) as object)));
  const dec = (e: Enc): unknown => {
    if (typeof e === 'number') return out[e];
    if (e === null || typeof e !== 'object') return e;
    if ('f' in e) {
      const f = fns.get(e.f);
      if (!f) throw new Error(`the AXL schema digest names an unknown function ${e.f}`);
      return f;
    }
    return e.n;
  };
  nodes.forEach((n, i) => {
    const target = out[i] as any;
    if (n[0] === 'R') {
      for (let j = 1; j < n.length; j++) target.push(dec(n[j] as Enc));
    } else {
      for (let j = 1; j < n.length; j += 2) target[n[j] as string] = dec(n[j + 1] as Enc);
    }
  });
  return out;
}

/** Names for the functions a descriptor may hold (its jsType): the XSD built-ins and the JS globals. */
function functionNames(cls: DescriptorClasses): Map<unknown, string> {
  const m = new Map<unknown, string>([
    [String, 'String'],
    [Number, 'Number'],
    [Boolean, 'Boolean'],
    [Date, 'Date'],
  ]);
  for (const [name, f] of Object.entries(cls.schemaTypes)) {
    if (typeof f === 'function' && !m.has(f)) m.set(f, `xsd:${name}`);
  }
  return m;
}

function qnameKey(q: any): string | undefined {
  const keys = Object.keys(q);
  if (!keys.every((k) => k === 'nsURI' || k === 'name' || k === 'prefix' || k === 'anonymous'))
    return undefined;
  return JSON.stringify([q.nsURI, q.name, q.prefix]);
}

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
/* eslint-enable @typescript-eslint/no-explicit-any */
