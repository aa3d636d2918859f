/**
 * Output tree for the XML writer: keys starting with `@` are attributes, `#text` is text content, an array
 * repeats the element, null writes an empty element and undefined writes nothing.
 */
export type XmlOut = string | number | boolean | null | undefined | XmlOutObject | XmlOut[];
export interface XmlOutObject {
  [key: string]: XmlOut;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&apos;';
    }
  });
}

/** Serialises `value` as the element `name`. */
export function toXml(name: string, value: XmlOut): string {
  const parts: string[] = [];
  writeElement(parts, name, value);
  return parts.join('');
}

function writeElement(parts: string[], name: string, value: XmlOut): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) writeElement(parts, name, item);
    return;
  }
  if (value === null) {
    parts.push(`<${name}/>`);
    return;
  }
  if (typeof value !== 'object') {
    const text = String(value);
    parts.push(text === '' ? `<${name}/>` : `<${name}>${escapeXml(text)}</${name}>`);
    return;
  }
  let open = `<${name}`;
  const children: [string, XmlOut][] = [];
  let text: string | undefined;
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    if (key.startsWith('@')) open += ` ${key.slice(1)}="${escapeXml(String(child))}"`;
    else if (key === '#text') text = child === null ? '' : String(child as string | number | boolean);
    else children.push([key, child]);
  }
  if (children.length === 0 && (text === undefined || text === '')) {
    parts.push(`${open}/>`);
    return;
  }
  parts.push(`${open}>`);
  if (text !== undefined) parts.push(escapeXml(text));
  for (const [key, child] of children) writeElement(parts, key, child);
  parts.push(`</${name}>`);
}

/** Puts every element name below `value` in `prefix` (for schemas with elementFormDefault="qualified"). */
export function qualify(value: XmlOut, prefix: string): XmlOut {
  if (Array.isArray(value)) return value.map((v) => qualify(v, prefix));
  if (value === null || typeof value !== 'object') return value;
  const out: XmlOutObject = {};
  for (const [key, child] of Object.entries(value)) {
    out[key.startsWith('@') || key === '#text' ? key : `${prefix}:${key}`] = qualify(child, prefix);
  }
  return out;
}
