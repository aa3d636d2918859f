// What the XSD says beyond strong-soap's descriptors: required elements, choices, enumerations. A small
// schema written here covers every construct; the real 15.0 schema, when beside the checkout, the rest.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { annotateFields, MAX_ENUMERATION } from '../../../../plugins/_shared/axl/field-facts.ts';
import { isRequired, XsdModel } from '../../../../plugins/_shared/axl/xsd-model.ts';
import { fixture } from '../../../lab/helpers.ts';

const SMALL = `<?xml version="1.0"?>
<!-- a comment with <xsd:element name="ignored"/> inside -->
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:axlapi="urn:t" targetNamespace="urn:t">
  <xsd:complexType name="Base"><xsd:sequence><xsd:element name="inherited" type="xsd:string"/></xsd:sequence></xsd:complexType>
  <xsd:complexType name="Req">
    <xsd:complexContent><xsd:extension base="axlapi:Base"><xsd:sequence>
      <xsd:choice>
        <xsd:element name="uuid" type="xsd:string"/>
        <xsd:sequence><xsd:element name="pattern" type="xsd:string"/><xsd:element name="partition" type="xsd:string" minOccurs="0"/></xsd:sequence>
      </xsd:choice>
      <xsd:choice minOccurs="0"><xsd:element name="a"/><xsd:element name="b"/></xsd:choice>
      <xsd:element name="mode" type="axlapi:Mode" minOccurs="0"/>
      <xsd:element name="inline" minOccurs="0">
        <xsd:simpleType><xsd:restriction base="xsd:string"><xsd:enumeration value="x &amp; y"/></xsd:restriction></xsd:simpleType>
      </xsd:element>
      <xsd:element name="items" minOccurs="1">
        <xsd:complexType><xsd:sequence><xsd:element name="item" type="xsd:string" maxOccurs="unbounded"/></xsd:sequence></xsd:complexType>
      </xsd:element>
    </xsd:sequence></xsd:extension></xsd:complexContent>
  </xsd:complexType>
  <xsd:simpleType name="Mode"><xsd:restriction base="axlapi:BaseMode"/></xsd:simpleType>
  <xsd:simpleType name="BaseMode"><xsd:restriction base="xsd:string"><xsd:enumeration value="On"/><xsd:enumeration value='Off'/></xsd:restriction></xsd:simpleType>
  <xsd:element name="op" type="axlapi:Req"/>
</xsd:schema>`;

describe('AXL XSD facts', () => {
  it('reads required elements, choices, extensions and enumerations from a schema', () => {
    const m = new XsdModel([SMALL]);
    assert.equal(m.hasElement('ignored'), false, 'comments are not markup');
    const fields = m.elementFields('op') ?? [];
    assert.deepEqual(
      fields.map((f) => f.name),
      ['inherited', 'uuid', 'pattern', 'partition', 'a', 'b', 'mode', 'inline', 'items'],
    );
    const by = (n: string) => fields.find((f) => f.name === n) as NonNullable<(typeof fields)[number]>;
    assert.equal(isRequired(by('inherited')), true, 'from the base type');
    assert.equal(isRequired(by('uuid')), false);
    assert.deepEqual(by('pattern').choice, {
      alternatives: ['uuid', 'pattern', 'partition'],
      required: true,
    });
    assert.deepEqual(by('a').choice, { alternatives: ['a', 'b'], required: false });
    assert.deepEqual(m.enumeration(by('mode')), ['On', 'Off'], 'through a restriction of another type');
    assert.deepEqual(m.enumeration(by('inline')), ['x & y']);
    assert.equal(m.children(by('items'))[0]?.maxOccurs, Infinity);

    const annotated = annotateFields(
      [
        { name: 'uuid', many: false, nillable: false },
        { name: 'mode', many: false, nillable: false },
        {
          name: 'items',
          many: false,
          nillable: false,
          children: [{ name: 'item', many: true, nillable: false }],
        },
      ],
      fields,
      m,
    );
    assert.deepEqual(annotated[0], {
      name: 'uuid',
      many: false,
      nillable: false,
      required: false,
      choice: { of: ['uuid', 'pattern', 'partition'], required: true },
    });
    assert.deepEqual(annotated[1]?.enumeration, ['On', 'Off']);
    assert.equal(annotated[2]?.children?.[0]?.required, true);
  });

  it('reads the real 15.0 schema', (t) => {
    const dir = fixture('cucm-axl-schema', '15.0');
    if (!dir) {
      const reason = 'the real AXL 15.0 schema (../shared/fixtures) is absent on a fresh clone';
      console.log(`skip: ${reason}`);
      t.skip(reason);
      return;
    }
    const m = new XsdModel(['AXLSoap.xsd', 'AXLEnums.xsd'].map((f) => readFileSync(join(dir, f), 'utf8')));
    const phone = m.elementFields('addPhone')?.find((f) => f.name === 'phone');
    assert.ok(phone && isRequired(phone));
    const kids = m.children(phone);
    const product = kids.find((f) => f.name === 'product');
    assert.ok(product && isRequired(product));
    assert.equal(isRequired(kids.find((f) => f.name === 'description') as never), false);
    const products = m.enumeration(product) ?? [];
    assert.ok(products.includes('Cisco 8865') && products.length > MAX_ENUMERATION);
    const annotated = annotateFields([{ name: 'product', many: false, nillable: false }], kids, m);
    assert.equal(annotated[0]?.enumeration?.length, MAX_ENUMERATION);
    assert.equal(annotated[0]?.enumeration_total, products.length);
    const get = m.elementFields('getPhone') ?? [];
    assert.deepEqual(get.find((f) => f.name === 'uuid')?.choice, {
      alternatives: ['name', 'uuid'],
      required: true,
    });
    const reset = m.elementFields('doDeviceReset') ?? [];
    assert.ok(m.enumeration(reset.find((f) => f.name === 'deviceResetType') as never)?.includes('Restart'));
  });
});
