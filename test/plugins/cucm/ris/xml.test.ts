import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { BadRequestError, RISError } from '../../../../kernel/sdk/index.ts';
import { buildSelectEnvelope, DEFAULT_CRITERIA } from '../../../../plugins/cucm/ris/envelope.ts';
import { decodeXmlText, escapeXml, parseUntrusted } from '../../../../plugins/cucm/ris/xml-text.ts';

// An independent parser (entities on, as a node's would be) reads back what the client sends.
const reader = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: (n) => n === 'item' });

function sentCriteria(xml: string): { items: string[]; stateInfo: string; nodeName: string } {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a parsed SOAP request
  const op = (reader.parse(xml) as any).Envelope.Body.selectCmDevice;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    items: (op.CmSelectionCriteria.SelectItems.item as any[]).map((i) => String(i.Item)),
    stateInfo: String(op.StateInfo),
    nodeName: String(op.CmSelectionCriteria.NodeName),
  };
}

describe('RisPort70 envelopes escape every value', () => {
  it('keeps hostile select items, node names and StateInfo as text, never markup', () => {
    const hostile = [
      '</soap:Item></soap:item><soap:item><soap:Item>*',
      'a&b<c>"d\'e',
      ']]><x/>',
      '&amp;&lt;',
    ];
    const stateInfo = '<StateInfo><Node Name="cucm-pub" StateId="5"/></StateInfo>';
    const xml = buildSelectEnvelope(
      'selectCmDevice',
      { ...DEFAULT_CRITERIA, selectItems: hostile, nodeName: '<evil/>' },
      stateInfo,
    );
    assert.ok(!xml.includes('<x/>') && !xml.includes('<evil/>'));
    const read = sentCriteria(xml);
    assert.deepEqual(read.items, hostile, 'the node reads exactly the items given, one item each');
    assert.equal(read.stateInfo, stateInfo);
    assert.equal(read.nodeName, '<evil/>');
  });

  it('refuses characters XML cannot carry instead of dropping them', () => {
    assert.throws(() => escapeXml('SEP\u0000'), BadRequestError);
    assert.throws(() => escapeXml('bad\u0007bell'), BadRequestError);
    assert.throws(() => escapeXml('lone \uD800 surrogate'), BadRequestError);
    assert.equal(escapeXml('tab\tok \u{1F600}'), 'tab\tok \u{1F600}');
    assert.equal(escapeXml('cr\r'), 'cr&#13;');
  });

  it('decodes only predefined entities and character references', () => {
    assert.equal(
      decodeXmlText('a &amp;lt; b &lt;c&gt; &#65;&#x42; &quot;&apos; &bogus; &#xD800;'),
      'a &lt; b <c> AB "\' &bogus; &#xD800;',
    );
  });
});

describe('parsing untrusted XML', () => {
  const arrays = new Set(['item']);
  it('refuses a DOCTYPE (no entity can expand)', () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><a>&lol2;</a>';
    assert.throws(
      () => parseUntrusted(bomb, 'answer', { arrays }),
      (err: unknown) => {
        assert.ok(err instanceof RISError);
        assert.match(err.message, /DOCTYPE/);
        return true;
      },
    );
  });

  it('leaves undeclared entities as text and decodes predefined ones once', () => {
    const doc = parseUntrusted('<a><b>x &amp;amp; &ext; &lt;</b></a>', 'answer', { arrays });
    assert.deepEqual(doc, { a: { b: 'x &amp; &ext; <' } });
  });

  it('refuses malformed XML with a RISError', () => {
    assert.throws(() => parseUntrusted('<a><b></a>', 'answer', { arrays }), RISError);
  });
});
