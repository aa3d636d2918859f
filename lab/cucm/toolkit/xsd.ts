import { escapeXml } from '../../xml/write.ts';

/** A schema element: a named type, or an inline sequence (and an optional choice before it). */
export interface El {
  name: string;
  type?: string;
  optional?: boolean;
  repeated?: boolean;
  nillable?: boolean;
  children?: El[];
  /** Alternatives placed before `children` (get by uuid or by name). Each alternative is a sequence. */
  choice?: El[][];
  attributes?: string[];
}

export function el(name: string, type = 'xsd:string', optional = true): El {
  return { name, type, optional };
}

function occurs(e: El): string {
  return `${e.optional ? ' minOccurs="0"' : ''}${e.repeated ? ' maxOccurs="unbounded"' : ''}${e.nillable ? ' nillable="true"' : ''}`;
}

/** The content model (choice, sequence, attributes) of a complex type. */
export function content(
  children: El[],
  choice: El[][] | undefined,
  attributes: string[] | undefined,
  indent: string,
): string {
  const lines: string[] = [`${indent}<xsd:sequence>`];
  if (choice && choice.length > 0) {
    lines.push(`${indent}  <xsd:choice>`);
    for (const alternative of choice) {
      if (alternative.length === 1) lines.push(element(alternative[0] as El, `${indent}    `));
      else {
        lines.push(`${indent}    <xsd:sequence>`);
        for (const e of alternative) lines.push(element(e, `${indent}      `));
        lines.push(`${indent}    </xsd:sequence>`);
      }
    }
    lines.push(`${indent}  </xsd:choice>`);
  }
  for (const child of children) lines.push(element(child, `${indent}  `));
  lines.push(`${indent}</xsd:sequence>`);
  for (const a of attributes ?? [])
    lines.push(`${indent}<xsd:attribute name="${a}" type="axlapi:XUUID" use="optional"/>`);
  return lines.join('\n');
}

export function element(e: El, indent: string): string {
  if (!e.children && !e.choice)
    return `${indent}<xsd:element name="${escapeXml(e.name)}" type="${e.type ?? 'xsd:string'}"${occurs(e)}/>`;
  return [
    `${indent}<xsd:element name="${escapeXml(e.name)}"${occurs(e)}>`,
    `${indent}  <xsd:complexType>`,
    content(e.children ?? [], e.choice, e.attributes, `${indent}    `),
    `${indent}  </xsd:complexType>`,
    `${indent}</xsd:element>`,
  ].join('\n');
}

export function complexType(name: string, children: El[], choice?: El[][], attributes?: string[]): string {
  return [
    `  <xsd:complexType name="${name}">`,
    content(children, choice, attributes, '    '),
    '  </xsd:complexType>',
  ].join('\n');
}
