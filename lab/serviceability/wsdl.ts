// A document/literal WSDL 1.1 built from tables, for the lab's serviceability services: each service
// writes its types and operations (element names from the public API reference) and gets the document
// a SOAP toolkit (zeep, the product's own reader) loads. Written for the project; not Cisco's file.

/** An element of a sequence: name, XSD type (`xsd:string`, `tns:Counter`), repeated or not. */
export type Field = [name: string, type: string, repeated?: boolean];

export const XSD = {
  string: 'xsd:string',
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
}

function sequence(fields: Field[], indent: string, nillable: boolean): string {
  return fields
    .map(
      ([name, type, repeated]) =>
        `${indent}<xsd:element name="${name}" type="${type}" minOccurs="${repeated ? 0 : 1}"${repeated ? ' maxOccurs="unbounded"' : ''}${nillable ? ' nillable="true"' : ''}/>`,
    )
    .join('\n');
}

function enumeration(name: string, values: string[]): string {
  const items = values.map((v) => `          <xsd:enumeration value="${v}"/>`).join('\n');
  return `      <xsd:simpleType name="${name}">\n        <xsd:restriction base="xsd:string">\n${items}\n        </xsd:restriction>\n      </xsd:simpleType>`;
}

function complex(fields: Field[], indent: string, nillable = false): string {
  if (fields.length === 0) return `${indent}<xsd:complexType><xsd:sequence/></xsd:complexType>`;
  return `${indent}<xsd:complexType>\n${indent}  <xsd:sequence>\n${sequence(fields, `${indent}    `, nillable)}\n${indent}  </xsd:sequence>\n${indent}</xsd:complexType>`;
}

export function wsdlDocument(s: WsdlSpec): string {
  const nillable = s.nillable === true;
  const elements = s.operations
    .flatMap((op) => [
      `      <xsd:element name="${op.name}">\n${complex(op.input, '        ', nillable)}\n      </xsd:element>`,
      `      <xsd:element name="${op.name}Response">\n${complex(op.output, '        ', nillable)}\n      </xsd:element>`,
    ])
    .join('\n');
  const types = Object.entries(s.types)
    .map(([name, fields]) =>
      complex(fields, '      ', nillable).replace('<xsd:complexType>', `<xsd:complexType name="${name}">`),
    )
    .join('\n');
  const simpleTypes = Object.entries(s.enums ?? {})
    .map(([name, values]) => `\n${enumeration(name, values)}`)
    .join('');
  const messages = s.operations
    .map(
      (op) =>
        `  <wsdl:message name="${op.name}Request">\n    <wsdl:part name="parameters" element="tns:${op.name}"/>\n  </wsdl:message>\n` +
        `  <wsdl:message name="${op.name}Response">\n    <wsdl:part name="parameters" element="tns:${op.name}Response"/>\n  </wsdl:message>`,
    )
    .join('\n');
  const portOps = s.operations
    .map(
      (op) =>
        `    <wsdl:operation name="${op.name}">\n      <wsdl:input message="tns:${op.name}Request"/>\n      <wsdl:output message="tns:${op.name}Response"/>\n    </wsdl:operation>`,
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
