import { escapeXml } from '../../xml/write.ts';
import type { SchemaModel } from './operations.ts';
import { buildSchemaModel } from './operations.ts';
import { complexType } from './xsd.ts';

export const AXL_VERSION = '15.0';
export const AXL_NS = `http://www.cisco.com/AXL/API/${AXL_VERSION}`;
const SERVICE_NS = 'http://www.cisco.com/AXLAPIService/';
const NOTICE =
  'AXL schema subset simulated by the uc-mcp-server lab. Written for the project, generated from lab/cucm/toolkit.';

export interface ToolkitSchema {
  'AXLAPI.wsdl': string;
  'AXLSoap.xsd': string;
  'AXLEnums.xsd': string;
}

const upper = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function soapXsd(model: SchemaModel): string {
  const parts: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!-- ${NOTICE} -->`,
    `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:axlapi="${AXL_NS}" targetNamespace="${AXL_NS}" elementFormDefault="unqualified" attributeFormDefault="unqualified" version="${AXL_VERSION}">`,
    `  <xsd:include schemaLocation="AXLEnums.xsd"/>`,
    `  <xsd:element name="axlError" type="axlapi:AXLError"/>`,
    complexType('AXLError', [
      { name: 'axlcode', type: 'xsd:int' },
      { name: 'axlmessage', type: 'xsd:string' },
      { name: 'request', type: 'xsd:string' },
    ]),
    `  <xsd:simpleType name="XUUID">\n    <xsd:restriction base="xsd:string">\n      <xsd:pattern value="\\{........-....-....-....-............\\}"/>\n    </xsd:restriction>\n  </xsd:simpleType>`,
    `  <xsd:simpleType name="boolean">\n    <xsd:restriction base="xsd:string">\n      <xsd:pattern value="(t)|(f)|(true)|(false)|(0)|(1)"/>\n    </xsd:restriction>\n  </xsd:simpleType>`,
    `  <xsd:complexType name="XFkType">\n    <xsd:simpleContent>\n      <xsd:extension base="xsd:string">\n        <xsd:attribute name="uuid" type="axlapi:XUUID" use="optional"/>\n      </xsd:extension>\n    </xsd:simpleContent>\n  </xsd:complexType>`,
  ];
  for (const t of model.types) parts.push(complexType(t.name, t.children, undefined, t.attributes));
  for (const op of model.operations) {
    const Op = upper(op.name);
    parts.push(`  <xsd:element name="${op.name}" type="axlapi:${Op}Req"/>`);
    parts.push(`  <xsd:element name="${op.name}Response" type="axlapi:${Op}Res"/>`);
    parts.push(complexType(`${Op}Req`, op.request.children, op.request.choice));
    parts.push(complexType(`${Op}Res`, op.response));
  }
  parts.push('</xsd:schema>', '');
  return parts.join('\n');
}

function enumsXsd(model: SchemaModel): string {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!-- ${NOTICE} -->`,
    `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:axlapi="${AXL_NS}" targetNamespace="${AXL_NS}" elementFormDefault="unqualified" version="${AXL_VERSION}">`,
  ];
  for (const [name, values] of model.enums) {
    parts.push(`  <xsd:simpleType name="${name}">`, `    <xsd:restriction base="xsd:string">`);
    for (const v of values) parts.push(`      <xsd:enumeration value="${escapeXml(v)}"/>`);
    parts.push(`    </xsd:restriction>`, `  </xsd:simpleType>`);
  }
  parts.push('</xsd:schema>', '');
  return parts.join('\n');
}

function wsdl(model: SchemaModel): string {
  const ops = model.operations.map((o) => o.name);
  const messages = ops
    .map((op) =>
      [
        `  <message name="${op}In">`,
        `    <part element="xsd1:${op}" name="axlParams"/>`,
        `  </message>`,
        `  <message name="${op}Out">`,
        `    <part element="xsd1:${op}Response" name="axlParams"/>`,
        `  </message>`,
      ].join('\n'),
    )
    .join('\n');
  const portType = ops
    .map(
      (op) =>
        `    <operation name="${op}">\n      <input message="s0:${op}In"/>\n      <output message="s0:${op}Out"/>\n    </operation>`,
    )
    .join('\n');
  const binding = ops
    .map(
      (op) =>
        `    <operation name="${op}">\n      <soap:operation soapAction="CUCM:DB ver=${AXL_VERSION} ${op}" style="document"/>\n      <input>\n        <soap:body use="literal"/>\n      </input>\n      <output>\n        <soap:body use="literal"/>\n      </output>\n    </operation>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- ${NOTICE} -->
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:s0="${SERVICE_NS}" xmlns:xsd1="${AXL_NS}" targetNamespace="${SERVICE_NS}">
  <import location="AXLSoap.xsd" namespace="${AXL_NS}"/>
  <message name="AXLError">
    <part element="xsd1:axlError" name="parameters"/>
  </message>
${messages}
  <portType name="AXLPort">
${portType}
  </portType>
  <binding name="AXLAPIBinding" type="s0:AXLPort">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
${binding}
  </binding>
  <service name="AXLAPIService">
    <port binding="s0:AXLAPIBinding" name="AXLPort">
      <soap:address location="https://CCMSERVERNAME:8443/axl/"/>
    </port>
  </service>
</definitions>
`;
}

/** The project's own AXL schema for the simulated operations (WSDL, operations XSD, enumerations XSD). */
export function generateToolkitSchema(model: SchemaModel = buildSchemaModel()): ToolkitSchema {
  return { 'AXLAPI.wsdl': wsdl(model), 'AXLSoap.xsd': soapXsd(model), 'AXLEnums.xsd': enumsXsd(model) };
}
