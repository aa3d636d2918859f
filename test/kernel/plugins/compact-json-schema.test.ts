import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { z } from 'zod';
import { compactJsonSchema } from '../../../kernel/plugins/compact-json-schema.ts';

const jsonTree: z.ZodType = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonTree), z.record(z.string(), jsonTree)]),
);

// Shapes like the tools' own: an int with zod's safe-integer bounds, a record of any JSON value (the
// recursive definition), a described reference to it, nested objects and arrays, enums and defaults.
const SHAPES: Record<string, z.ZodObject> = {
  ints: z.object({ skip: z.number().int().min(0).optional(), n: z.number().int(), f: z.number() }).strict(),
  anyJson: z
    .object({
      host: z.string().min(1).max(270),
      args: z.record(z.string(), jsonTree).prefault({}).describe('The request body'),
      body: jsonTree.optional().describe('Any JSON'),
    })
    .strict(),
  nested: z
    .object({
      items: z.array(z.object({ name: z.string(), tags: z.record(z.string(), z.string()) })).max(3),
      mode: z.enum(['a', 'b']).default('a'),
    })
    .strict(),
};

const toJson = (s: z.ZodObject): Record<string, unknown> =>
  z.toJSONSchema(s, { io: 'input' }) as Record<string, unknown>;

describe('compactJsonSchema: the published tool schemas lose bytes, never meaning', () => {
  it('drops $schema, string propertyNames and the any-JSON definition', () => {
    const full = JSON.stringify(toJson(SHAPES.anyJson as z.ZodObject));
    const compact = JSON.stringify(compactJsonSchema(toJson(SHAPES.anyJson as z.ZodObject)));
    assert.match(full, /\$schema/);
    assert.match(full, /\$defs/);
    assert.doesNotMatch(compact, /\$schema|\$defs|\$ref|propertyNames/);
    assert.match(compact, /"description":"The request body"/, 'what sat beside the reference stays');
    assert.ok(compact.length * 2 < full.length, `${compact.length} of ${full.length} bytes`);
    const ints = JSON.stringify(compactJsonSchema(toJson(SHAPES.ints as z.ZodObject)));
    assert.match(ints, /9007199254740991/, "zod's safe-integer bound is a real bound: kept");
    assert.match(ints, /"minimum":0/);
    assert.match(ints, /"additionalProperties":false/, 'strictness is kept');
  });

  it('keeps a definition that is not the any-JSON one, and string constraints on property names', () => {
    const s = {
      type: 'object',
      properties: { t: { $ref: '#/$defs/node' } },
      propertyNames: { type: 'string', maxLength: 8 },
      $defs: { node: { type: 'object', properties: { c: { $ref: '#/$defs/node' } } } },
    };
    assert.deepEqual(compactJsonSchema(s), s);
  });

  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`accepts and refuses exactly what the full schema does (${name}, generated values)`, () => {
      const ajv = new Ajv2020({ strict: false, allErrors: false });
      const full = ajv.compile(toJson(shape));
      const compact = ajv.compile(compactJsonSchema(toJson(shape)));
      const sample = fc.oneof(
        fc.jsonValue(),
        fc.record({
          host: fc.oneof(fc.string(), fc.constant('')),
          args: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
          body: fc.jsonValue(),
        }),
        fc.record({
          skip: fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER + 2)),
          n: fc.oneof(fc.integer(), fc.double()),
          f: fc.double({ noNaN: true }),
        }),
        fc.record({
          items: fc.array(
            fc.record({
              name: fc.string(),
              tags: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.jsonValue())),
            }),
            { maxLength: 4 },
          ),
          mode: fc.constantFrom('a', 'b', 'c'),
        }),
      );
      let accepted = 0;
      fc.assert(
        fc.property(sample, (v) => {
          const a = full(v);
          if (a) accepted++;
          return a === compact(v);
        }),
        { numRuns: 2000 },
      );
      assert.ok(accepted > 0, 'some generated values are valid, so both sides are exercised');
    });
  }
});
