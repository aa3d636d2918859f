// What strong-soap's descriptors leave out of an AXL schema: which request elements are required
// (minOccurs), which are alternatives of an xsd:choice, and the values an enumerated type allows. Read
// straight from AXLSoap.xsd and AXLEnums.xsd, once per schema, and kept as a compact index of types.

export interface XsdField {
  name: string;
  /** Local name of the element's named type, when it has one. */
  type?: string;
  minOccurs: number;
  /** Infinity for `unbounded`. */
  maxOccurs: number;
  nillable: boolean;
  /**
   * Set on each alternative of an xsd:choice: the alternatives' names, and whether the choice itself is
   * required (then exactly one alternative must be sent, though each on its own is optional).
   */
  choice?: { alternatives: string[]; required: boolean };
  /** The element itself when it declares an inline complexType or simpleType. */
  inline?: XsdNode;
}

/** One XSD element: its local tag name, attributes and child XSD elements (text is ignored). */
export interface XsdNode {
  tag: string;
  attrs: Record<string, string>;
  kids: XsdNode[];
}

const TAG =
  /<(\/?)([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g;
const ATTR = /([^\s=>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function unescape(v: string): string {
  return v.replace(/&(lt|gt|quot|apos|amp);/g, (_m, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : '&',
  );
}

/**
 * The element tree of a schema document, read with one regular-expression pass: the 15.0 AXLSoap.xsd
 * (3.7 MB) in a fraction of the time a general XML parser takes, so a first describe does not hold the
 * event loop for a second. Only markup is kept; the schema guard has already refused DTDs and entities.
 */
function scan(text: string): XsdNode[] {
  const root: XsdNode = { tag: '#root', attrs: {}, kids: [] };
  const stack: XsdNode[] = [root];
  for (const m of text.matchAll(TAG)) {
    const name = m[3];
    if (name === undefined) continue;
    const top = stack[stack.length - 1] as XsdNode;
    if (m[1] === '/') {
      if (stack.length > 1 && top.tag === name) stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (m[4] ?? '').matchAll(ATTR)) attrs[a[1] as string] = unescape(a[2] ?? a[3] ?? '');
    const node: XsdNode = { tag: name, attrs, kids: [] };
    top.kids.push(node);
    if (m[5] !== '/') stack.push(node);
  }
  return root.kids;
}

const localName = (qname: string | undefined): string | undefined => qname?.split(':').pop();

function occurs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return value === 'unbounded' ? Infinity : Number(value);
}

const kids = (node: XsdNode | undefined, tag: string): XsdNode[] =>
  node ? node.kids.filter((k) => k.tag === tag) : [];

/** The complex and simple types and global elements of one or more schema documents (one namespace). */
export class XsdModel {
  private readonly complex = new Map<string, XsdNode>();
  private readonly simple = new Map<string, XsdNode>();
  private readonly elements = new Map<string, XsdNode>();

  constructor(texts: readonly string[]) {
    for (const text of texts) {
      for (const schema of scan(text).filter((n) => n.tag === 'schema')) {
        for (const n of schema.kids) {
          const name = n.attrs.name;
          if (name === undefined) continue;
          if (n.tag === 'complexType') this.complex.set(name, n);
          else if (n.tag === 'simpleType') this.simple.set(name, n);
          else if (n.tag === 'element') this.elements.set(name, n);
        }
      }
    }
  }

  hasElement(name: string): boolean {
    return this.elements.has(name);
  }

  /** The type name of a global element (`getPhone` → `GetPhoneReq`). */
  elementType(name: string): string | undefined {
    return localName(this.elements.get(name)?.attrs.type);
  }

  /** The child elements of a global element (an operation's request or response). */
  elementFields(name: string): XsdField[] | undefined {
    const e = this.elements.get(name);
    if (!e) return undefined;
    return this.children(this.toField(e));
  }

  /** The child elements of a field: from its named or inline complex type; none for a simple one. */
  children(field: XsdField): XsdField[] {
    const ct = field.inline
      ? kids(field.inline, 'complexType')[0]
      : field.type
        ? this.complex.get(field.type)
        : undefined;
    return ct ? this.typeContent(ct, 0) : [];
  }

  /** The child elements of a named complex type. */
  typeFields(type: string): XsdField[] {
    const ct = this.complex.get(type);
    return ct ? this.typeContent(ct, 0) : [];
  }

  /** The values an enumerated simple type allows (following restrictions of other named types). */
  enumeration(field: XsdField): string[] | undefined {
    const inline = field.inline ? kids(field.inline, 'simpleType')[0] : undefined;
    return this.simpleEnumeration(inline ?? (field.type ? this.simple.get(field.type) : undefined), 0);
  }

  private simpleEnumeration(st: XsdNode | undefined, depth: number): string[] | undefined {
    if (!st || depth > 8) return undefined;
    const restriction = kids(st, 'restriction')[0];
    if (!restriction) return undefined;
    const values = kids(restriction, 'enumeration').map((e) => e.attrs.value ?? '');
    if (values.length > 0) return values;
    const base = localName(restriction.attrs.base);
    return base ? this.simpleEnumeration(this.simple.get(base), depth + 1) : undefined;
  }

  private toField(e: XsdNode, choice?: XsdField['choice']): XsdField {
    const refName = localName(e.attrs.ref);
    const ref = refName ? this.elements.get(refName) : undefined;
    const typed = ref ?? e;
    const inline = typed.kids.some((k) => k.tag === 'complexType' || k.tag === 'simpleType')
      ? typed
      : undefined;
    const type = localName(typed.attrs.type);
    return {
      name: e.attrs.name ?? refName ?? '',
      ...(type ? { type } : {}),
      minOccurs: occurs(e.attrs.minOccurs, 1),
      maxOccurs: occurs(e.attrs.maxOccurs, 1),
      nillable: e.attrs.nillable === 'true',
      ...(choice ? { choice } : {}),
      ...(inline ? { inline } : {}),
    };
  }

  private typeContent(ct: XsdNode, depth: number): XsdField[] {
    if (depth > 16) return [];
    const out: XsdField[] = [];
    for (const part of ct.kids) {
      if (part.tag !== 'complexContent') continue;
      for (const derived of part.kids) {
        const base = localName(derived.attrs.base);
        const baseType = base ? this.complex.get(base) : undefined;
        if (derived.tag === 'extension' && baseType) out.push(...this.typeContent(baseType, depth + 1));
        if (derived.tag === 'extension' || derived.tag === 'restriction')
          out.push(...this.particles(derived, undefined));
      }
    }
    out.push(...this.particles(ct, undefined));
    return out;
  }

  /** Elements of the sequences, choices and groups directly below `node`, in document order. */
  private particles(node: XsdNode, choice: XsdField['choice']): XsdField[] {
    const out: XsdField[] = [];
    for (const k of node.kids) {
      if (k.tag === 'element') out.push(this.toField(k, choice));
      else if (k.tag === 'sequence' || k.tag === 'all') out.push(...this.particles(k, choice));
      else if (k.tag === 'choice') {
        const inner = this.particles(k, { alternatives: [], required: false });
        // A choice inside another is optional on its own: the outer one decides what is required.
        const shared = {
          alternatives: [...new Set(inner.map((f) => f.name))],
          required: choice === undefined && occurs(k.attrs.minOccurs, 1) >= 1,
        };
        for (const f of inner) out.push({ ...f, choice: shared });
      }
    }
    return out;
  }
}

/** Whether an element must be sent: minOccurs ≥ 1 and not one alternative of a choice. */
export function isRequired(field: XsdField): boolean {
  return field.minOccurs >= 1 && !field.choice;
}
