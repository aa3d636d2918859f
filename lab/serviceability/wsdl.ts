// A document/literal WSDL 1.1 built from tables, for the lab's serviceability services: each service
// writes its types and operations (element names from the public API reference) and gets the document
// a SOAP toolkit (zeep, the product's own reader) loads. Written for the project; not Cisco's file.

/** An element of a sequence: name, XSD type (`xsd:string`, `tns:Counter`), repeated or not. */
export type Field = [name: string, type: string, repeated?: boolean];

export const XSD = {
  string: 'xsd:string',
  /** Bytes; a bare answer of this type is sent by MTOM (xmime:expectedContentTypes). */
  base64Binary: 'xsd:base64Binary',
  unsignedInt: 'xsd:unsignedInt',
  long: 'xsd:long',
  boolean: 'xsd:boolean',
} as const;

export interface WsdlOperation {
  name: string;
  /** Children of the request element `<name>`. */
  input: Field[];
  /** Children of the response element `<name>Response`. */
  output: Field[];
  /**
   * Answered with another operation's response element and message instead of its own (RisPort70's
   * selectCmDeviceExt answers selectCmDeviceResponse, as Cisco's RISService70.wsdl declares); `output`
   * is then unused.
   */
  answeredAs?: string;
  /**
   * A bare operation: its request is this one element alone in the Body (no `<name>` wrapper) and its
   * answer this one element (LogCollectionPortTypeService's GetOneFile: FileName in, GetOneFileReturn
   * out, as Cisco's sample WSDL declares it); `input` and `output` are then unused.
   */
  bare?: { input: Field; output: Field };
}

export interface WsdlSpec {
  /** `PerfmonService`. */
  service: string;
  /** The port's name: `PerfmonPort`. */
  port: string;
  /** The port type's and the binding's names: `PerfmonPortType`, `PerfmonBinding`. */
  portType: string;
  binding: string;
  namespace: string;
  location: string;
  /** Named complex types (sequences), referenced as `tns:<name>`. */
  types: Record<string, Field[]>;
  operations: WsdlOperation[];
  /** Says what the document is, in an XML comment. */
  comment: string;
  /** Every element nillable, as the real WSDL declares them (ControlCenterServices); default not. */
  nillable?: boolean;
  /** Named string enumerations (simple types), referenced as `tns:<name>`. */
  enums?: Record<string, string[]>;
  /** Every element optional (minOccurs 0), as RisPort70's clients expect; default only repeated ones. */
  optional?: boolean;
}

interface Occurs {
  nillable: boolean;
  optional: boolean;
}

function sequence(fields: Field[], indent: string, o: Occurs): string {
  return fields
    .map(
      ([name, type, repeated]) =>
        `${indent}<xsd:element name="${name}" type="${type}" minOccurs="${repeated || o.optional ? 0 : 1}"${repeated ? ' maxOccurs="unbounded"' : ''}${o.nillable ? ' nillable="true"' : ''}/>`,
    )
    .join('\n');
}

function enumeration(name: string, values: string[]): string {
  const items = values.map((v) => `          <xsd:enumeration value="${v}"/>`).join('\n');
  return `      <xsd:simpleType name="${name}">\n        <xsd:restriction base="xsd:string">\n${items}\n        </xsd:restriction>\n      </xsd:simpleType>`;
}

function complex(fields: Field[], indent: string, o: Occurs): string {
  if (fields.length === 0) return `${indent}<xsd:complexType><xsd:sequence/></xsd:complexType>`;
  return `${indent}<xsd:complexType>\n${indent}  <xsd:sequence>\n${sequence(fields, `${indent}    `, o)}\n${indent}  </xsd:sequence>\n${indent}</xsd:complexType>`;
}

export function wsdlDocument(s: WsdlSpec): string {
  const occurs: Occurs = { nillable: s.nillable === true, optional: s.optional === true };
  const element = (name: string, fields: Field[]): string =>
    `      <xsd:element name="${name}">\n${complex(fields, '        ', occurs)}\n      </xsd:element>`;
  const message = (name: string, element: string): string =>
    `  <wsdl:message name="${name}">\n    <wsdl:part name="parameters" element="tns:${element}"/>\n  </wsdl:message>`;
  // An operation answered with another's response declares neither element nor message of its own.
  const own = (op: WsdlOperation, what: (response: string) => string): string[] =>
    op.answeredAs === undefined ? [what(`${op.name}Response`)] : [];
  const bareElement = ([name, type]: Field): string =>
    `      <xsd:element name="${name}" type="${type}"${type === XSD.base64Binary ? ' xmime:expectedContentTypes="*/*" xmlns:xmime="http://www.w3.org/2005/05/xmlmime"' : ''}/>`;
  const elements = s.operations
    .flatMap((op) =>
      op.bare
        ? [bareElement(op.bare.input), bareElement(op.bare.output)]
        : [element(op.name, op.input), ...own(op, (r) => element(r, op.output))],
    )
    .join('\n');
  const types = Object.entries(s.types)
    .map(([name, fields]) =>
      complex(fields, '      ', occurs).replace('<xsd:complexType>', `<xsd:complexType name="${name}">`),
    )
    .join('\n');
  const simpleTypes = Object.entries(s.enums ?? {})
    .map(([name, values]) => `\n${enumeration(name, values)}`)
    .join('');
  const barePart = (name: string, [element]: Field): string =>
    `  <wsdl:message name="${name}">\n    <wsdl:part name="${element}" element="tns:${element}"/>\n  </wsdl:message>`;
  const messages = s.operations
    .flatMap((op) =>
      op.bare
        ? [barePart(`${op.name}Request`, op.bare.input), barePart(`${op.name}Response`, op.bare.output)]
        : [message(`${op.name}Request`, op.name), ...own(op, (r) => message(r, r))],
    )
    .join('\n');
  const portOps = s.operations
    .map(
      (op) =>
        `    <wsdl:operation name="${op.name}">\n      <wsdl:input message="tns:${op.name}Request"/>\n      <wsdl:output message="tns:${op.answeredAs ?? op.name}Response"/>\n    </wsdl:operation>`,
    )
    .join('\n');
  const bindingOps = s.operations
    .map(
      (op) =>
        `    <wsdl:operation name="${op.name}">\n      <soap:operation soapAction="${op.name}"/>\n      <wsdl:input><soap:body use="literal"/></wsdl:input>\n      <wsdl:output><soap:body use="literal"/></wsdl:output>\n    </wsdl:operation>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- ${s.comment} -->
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="${s.namespace}" targetNamespace="${s.namespace}">
  <wsdl:types>
    <xsd:schema targetNamespace="${s.namespace}" elementFormDefault="qualified">
${elements}
${types}${simpleTypes}
    </xsd:schema>
  </wsdl:types>
${messages}
  <wsdl:portType name="${s.portType}">
${portOps}
  </wsdl:portType>
  <wsdl:binding name="${s.binding}" type="tns:${s.portType}">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
${bindingOps}
  </wsdl:binding>
  <wsdl:service name="${s.service}">
    <wsdl:port name="${s.port}" binding="tns:${s.binding}">
      <soap:address location="${s.location}"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>
`;
}
