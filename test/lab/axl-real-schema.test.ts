// The lab's AXL against the real CUCM 15.0 schema (../shared/fixtures, absent from a fresh clone): every
// operation the lab answers exists there, the lab's own toolkit asks nothing the real one does not, and
// every get/list answer holds only elements the real response type allows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { CUCM_FAMILIES, cucmOperations } from '../../lab/cucm/axl/operations.ts';
import { generateToolkitSchema } from '../../lab/cucm/toolkit/generate.ts';
import { ACTION_SPECS } from '../../lab/cucm/axl/actions.ts';
import { buildSchemaModel, specialOperations } from '../../lab/cucm/toolkit/operations.ts';
import type { XsdField } from '../../plugins/_shared/axl/xsd-model.ts';
import { isRequired, XsdModel } from '../../plugins/_shared/axl/xsd-model.ts';
import { axl, fixture, startTestLab } from './helpers.ts';

const realDir = fixture('cucm-axl-schema', '15.0');
const labOps = buildSchemaModel().operations.map((o) => o.name);

describe('lab AXL operation count', () => {
  it('serves at least 250 operations, each with a handler on the node that answers it', () => {
    assert.ok(labOps.length >= 250, `the lab's toolkit lists ${labOps.length} operations`);
    assert.equal(new Set(labOps).size, labOps.length, 'no operation is listed twice');
    const handled = new Set(cucmOperations('15.0').map((o) => o.name));
    const cucmSpecs = buildSchemaModel(CUCM_FAMILIES, [
      ...specialOperations(),
      ...ACTION_SPECS,
    ]).operations.map((o) => o.name);
    for (const op of cucmSpecs) assert.ok(handled.has(op), `${op} is in the toolkit but has no handler`);
    for (const op of handled) assert.ok(cucmSpecs.includes(op), `${op} is answered but not in the toolkit`);
  });
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
});

/** Problems of the lab's request fields against the real ones (names, nesting, required, repetition). */
function requestMismatches(
  lab: XsdModel,
  labFields: XsdField[],
  real: XsdModel,
  realFields: XsdField[],
  path: string,
  depth: number,
): string[] {
  const out: string[] = [];
  for (const f of labFields) {
    const r = realFields.find((x) => x.name === f.name);
    const at = `${path}/${f.name}`;
    if (!r) {
      out.push(`${at}: not in the real schema`);
      continue;
    }
    if (isRequired(f) && !isRequired(r)) out.push(`${at}: required by the lab, optional in the real schema`);
    if (f.maxOccurs > 1 && r.maxOccurs <= 1) out.push(`${at}: repeats in the lab only`);
    const allowed = real.enumeration(r);
    for (const v of lab.enumeration(f) ?? [])
      if (allowed && !allowed.includes(v))
        out.push(`${at}: "${v}" is not a value of ${r.type ?? 'its type'}`);
    if (depth > 0) {
      const kids = lab.children(f);
      if (kids.length > 0) out.push(...requestMismatches(lab, kids, real, real.children(r), at, depth - 1));
    }
  }
  return out;
}

/** Elements of a lab answer the real response type does not allow. */
function answerMismatches(real: XsdModel, value: unknown, fields: XsdField[], path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  // A sequence is read in order by strict clients (zeep): the lab's elements must follow the real order.
  const ranks = Object.keys(value)
    .filter((k) => !k.startsWith('@') && k !== '#text')
    .map((k) => fields.findIndex((f) => f.name === k));
  if (ranks.some((r, i) => i > 0 && r >= 0 && r < (ranks[i - 1] as number)))
    out.push(`${path}: elements out of the real schema's order`);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key.startsWith('@') || key === '#text') continue;
    const r = fields.find((x) => x.name === key);
    if (!r) {
      out.push(`${path}/${key}: not allowed by the real response type`);
      continue;
    }
    if (Array.isArray(v) && r.maxOccurs <= 1) out.push(`${path}/${key}: repeated, the real type allows one`);
    const kids = real.children(r);
    for (const item of Array.isArray(v) ? v : [v])
      out.push(...answerMismatches(real, item, kids, `${path}/${key}`));
  }
  return out;
}

describe('lab AXL against the real 15.0 schema', () => {
  if (!realDir) {
    it('needs ../shared/fixtures/cucm-axl-schema/15.0', (t) => {
      console.log('skipped: the real AXL 15.0 schema is not beside the checkout (../shared/fixtures)');
      t.skip('real AXL schema absent');
    });
    return;
  }
  const dir = realDir;
  const real = new XsdModel(['AXLSoap.xsd', 'AXLEnums.xsd'].map((f) => readFileSync(join(dir, f), 'utf8')));
  const realOps = new Set(
    [...readFileSync(join(dir, 'AXLAPI.wsdl'), 'utf8').matchAll(/<operation name="(\w+)"/g)].map((m) => m[1]),
  );
  const toolkit = generateToolkitSchema();
  const lab = new XsdModel([toolkit['AXLSoap.xsd'], toolkit['AXLEnums.xsd']]);

  it('has every lab operation, with request fields a subset of the real ones', () => {
    const problems: string[] = [];
    for (const op of labOps) {
      if (!realOps.has(op)) {
        problems.push(`${op}: not an operation of the real 15.0 WSDL`);
        continue;
      }
      const labFields = lab.elementFields(op) ?? [];
      const realFields = real.elementFields(op) ?? [];
      problems.push(...requestMismatches(lab, labFields, real, realFields, op, 6));
    }
    assert.deepEqual(problems, []);
  });

  describe('answers', () => {
    let node: Lab;
    before(async () => {
      node = await startTestLab();
    });
    after(() => node.stop());

    it('answers every get and list with elements the real response types allow', async () => {
      const problems: string[] = [];
      for (const family of CUCM_FAMILIES) {
        const check = (op: string, text: string): unknown => {
          const body = (parser.parse(text) as { Envelope: { Body: Record<string, unknown> } }).Envelope.Body;
          const answer = body[`${op}Response`];
          if (!answer) {
            problems.push(`${op}: ${text.slice(0, 300)}`);
            return undefined;
          }
          problems.push(...answerMismatches(real, answer, real.elementFields(`${op}Response`) ?? [], op));
          return answer;
        };
        if (family.singleton) {
          check(`get${family.name}`, (await axl(node, `get${family.name}`, '')).text);
          continue;
        }
        if (!family.ops.includes('list')) continue;
        const search = family.search[0] as string;
        const listed = check(
          `list${family.name}`,
          (
            await axl(
              node,
              `list${family.name}`,
              `<searchCriteria><${search}>%</${search}></searchCriteria><returnedTags/>`,
            )
          ).text,
        ) as { return?: Record<string, unknown> } | undefined;
        const items = listed?.return?.[family.tag];
        const first = (Array.isArray(items) ? items[0] : items) as Record<string, string> | undefined;
        if (!first) {
          problems.push(`list${family.name}: the lab has no ${family.label} to answer with`);
          continue;
        }
        if (family.ops.includes('get'))
          check(
            `get${family.name}`,
            (await axl(node, `get${family.name}`, `<uuid>${first['@uuid']}</uuid>`)).text,
          );
      }
      assert.deepEqual(problems, []);
    });
  });
});
