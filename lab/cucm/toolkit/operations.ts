import type { Family, FieldSpec, Shape } from '../axl/family.ts';
import { fieldColumn, listEdits, orderRank, servedIn } from '../axl/family.ts';
import { PRESENCE_SPECS, presenceRedundancyGroupFamily } from '../../imp/presence-ops.ts';
import { ACTION_SPECS } from '../axl/actions.ts';
import { CUCM_FAMILIES } from '../axl/operations.ts';
import type { El } from './xsd.ts';
import { el } from './xsd.ts';

/**
 * The compact table the toolkit schema is generated from: every simulated operation with its request and
 * response content. Object families come from the same definitions the AXL handlers run on, so the
 * schema cannot drift from what the lab answers.
 */
export interface OperationSpec {
  name: string;
  request: { children: El[]; choice?: El[][] };
  response: El[];
}

export interface SchemaModel {
  operations: OperationSpec[];
  /** Named complex types (XPhone, RPhone, LPhone...). */
  types: { name: string; children: El[]; attributes?: string[] }[];
  /** Enumerations for AXLEnums.xsd: type name to values. */
  enums: Map<string, Set<string>>;
}

const upper = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function enumType(model: SchemaModel, field: Extract<FieldSpec, { type: 'enum' }>): string {
  const name = `X${upper(field.axl.split('/').pop() as string)}`;
  const values = model.enums.get(name) ?? new Set<string>();
  for (const v of Object.values(field.values)) values.add(v);
  model.enums.set(name, values);
  return `axlapi:${name}`;
}

function fieldType(model: SchemaModel, field: FieldSpec): string {
  if (field.type === 'fk') return 'axlapi:XFkType';
  if (field.type === 'enum') return enumType(model, field);
  if (field.type === 'bool') return 'axlapi:boolean';
  return 'xsd:string';
}

function shapeEl(shape: Shape, optional: boolean): El {
  if (!shape.children)
    return {
      name: shape.name,
      type: shape.fk ? 'axlapi:XFkType' : 'xsd:string',
      optional,
      ...(shape.repeated ? { repeated: true } : {}),
    };
  return {
    name: shape.name,
    optional,
    ...(shape.repeated ? { repeated: true } : {}),
    children: shape.children.map((c) => shapeEl(c, true)),
    ...(shape.repeated ? { attributes: ['uuid'] } : {}),
  };
}

/** Fields as elements, grouping path fields (`autoRegistration/startDn`) into inline containers. */
function fieldEls(
  model: SchemaModel,
  family: Family,
  options: { allOptional: boolean; skip?: Set<string>; op: 'add' | 'update' | 'get' | 'list' },
): El[] {
  const out: El[] = [];
  for (const field of family.fields) {
    if (options.skip?.has(field.axl) || !servedIn(field, options.op)) continue;
    const parts = field.axl.split('/');
    const optional = options.allOptional || !family.required.includes(field.axl);
    let list = out;
    for (const part of parts.slice(0, -1)) {
      let container = list.find((e) => e.name === part);
      if (!container) {
        container = { name: part, optional: true, children: [] };
        list.push(container);
      }
      list = container.children as El[];
    }
    list.push({
      name: parts[parts.length - 1] as string,
      type: fieldType(model, field),
      optional,
      nillable: fieldColumn(field) !== undefined && optional,
    });
  }
  for (const nested of family.nested ?? [])
    if (servedIn(nested, options.op)) out.push(shapeEl(nested.shape, true));
  return out
    .map((e, i) => ({ e, i }))
    .sort((a, b) => orderRank(family, a.e.name) - orderRank(family, b.e.name) || a.i - b.i)
    .map(({ e }) => e);
}

function keyChoice(model: SchemaModel, family: Family): El[][] {
  const keyEls = family.keys.map((k) => {
    const field = family.fields.find((f) => f.axl === k) as FieldSpec;
    return { name: k, type: fieldType(model, field), optional: field.type === 'fk' };
  });
  return [[el('uuid', 'axlapi:XUUID', false)], keyEls];
}

function familySpecs(model: SchemaModel, f: Family): OperationSpec[] {
  const tag = f.tag;
  model.types.push({ name: `X${f.name}`, children: fieldEls(model, f, { allOptional: false, op: 'add' }) });
  model.types.push({
    name: `R${f.name}`,
    children: fieldEls(model, f, { allOptional: true, op: 'get' }),
    attributes: ['uuid'],
  });
  model.types.push({
    name: `L${f.name}`,
    children: fieldEls(model, f, { allOptional: true, op: 'list' }),
    attributes: ['uuid'],
  });
  const standard: El[] = [el('return', 'xsd:string', false)];
  const specs: OperationSpec[] = [];
  const ops = new Set(f.ops);
  if (ops.has('add'))
    specs.push({
      name: `add${f.name}`,
      request: { children: [{ name: tag, type: `axlapi:X${f.name}` }] },
      response: standard,
    });
  // A singleton (the LDAP system settings) is named by nothing: no key choice, no returnedTags.
  const keys = f.singleton ? {} : { choice: keyChoice(model, f) };
  if (ops.has('update')) {
    const rename = f.rename ? [el(f.rename.element)] : [];
    const rest = fieldEls(model, f, { allOptional: true, skip: new Set(f.keys), op: 'update' }).flatMap(
      (e) => {
        const whole = { ...e, optional: true };
        // A list kept whole (`members`) is also edited item by item: removeMembers and addMembers before
        // it, in the real schema's order (UpdateCssReq, UpdatePhoneReq's removeLines/addLines/lines).
        return listEdits(f).includes(e.name)
          ? [{ ...whole, name: `remove${upper(e.name)}` }, { ...whole, name: `add${upper(e.name)}` }, whole]
          : [whole];
      },
    );
    specs.push({
      name: `update${f.name}`,
      request: { ...keys, children: [...rename, ...rest] },
      response: standard,
    });
  }
  if (ops.has('get')) {
    specs.push({
      name: `get${f.name}`,
      request: {
        ...keys,
        children: f.singleton ? [] : [{ name: 'returnedTags', type: `axlapi:R${f.name}`, optional: true }],
      },
      response: [{ name: 'return', children: [{ name: tag, type: `axlapi:R${f.name}` }] }],
    });
  }
  for (const action of ['apply', 'reset', 'restart'] as const) {
    if (ops.has(action))
      specs.push({ name: `${action}${f.name}`, request: { ...keys, children: [] }, response: standard });
  }
  if (ops.has('remove'))
    specs.push({
      name: `remove${f.name}`,
      request: { choice: keyChoice(model, f), children: [] },
      response: standard,
    });
  if (ops.has('list')) {
    specs.push({
      name: `list${f.name}`,
      request: {
        children: [
          { name: 'searchCriteria', children: f.search.map((s) => el(s)) },
          { name: 'returnedTags', type: `axlapi:L${f.name}` },
          el('skip', 'xsd:unsignedLong'),
          el('first', 'xsd:unsignedLong'),
        ],
      },
      response: [
        {
          name: 'return',
          children: [{ name: tag, type: `axlapi:L${f.name}`, optional: true, repeated: true }],
        },
      ],
    });
  }
  return specs;
}

/** Operations beyond the object families, in Cisco's element names. */
export function specialOperations(): OperationSpec[] {
  return [
    {
      name: 'getCCMVersion',
      request: { children: [el('processNodeName')] },
      response: [
        {
          name: 'return',
          children: [{ name: 'componentVersion', children: [el('version', 'xsd:string', false)] }],
        },
      ],
    },
    {
      name: 'executeSQLQuery',
      request: { children: [el('sql', 'xsd:string', false)] },
      response: [
        { name: 'return', children: [{ name: 'row', type: 'xsd:anyType', optional: true, repeated: true }] },
      ],
    },
    {
      name: 'executeSQLUpdate',
      request: { children: [el('sql', 'xsd:string', false)] },
      response: [{ name: 'return', children: [el('rowsUpdated', 'xsd:unsignedLong', false)] }],
    },
  ];
}

/** The whole simulated AXL surface: CUCM families, the presence operations IM&P answers, and the rest. */
export function buildSchemaModel(
  families: readonly Family[] = [...CUCM_FAMILIES, presenceRedundancyGroupFamily],
  extra: OperationSpec[] = [...specialOperations(), ...ACTION_SPECS, ...PRESENCE_SPECS],
): SchemaModel {
  const model: SchemaModel = { operations: [], types: [], enums: new Map() };
  for (const f of families) model.operations.push(...familySpecs(model, f));
  model.operations.push(...extra);
  return model;
}
