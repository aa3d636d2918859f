// A get answer reshaped into a request of another type (the add of a removed object, the update that
// puts values back): only the elements the request type has, in its order, references by name.
import type { Json } from '../axl/schema.ts';
import type { XsdField, XsdModel } from '../axl/xsd-model.ts';
import { keyText } from './axl-target.ts';

/**
 * `value` (from a get answer) as the request element `field` takes it, or undefined when nothing of it
 * fits. Elements the type lacks (read-only ones: a phone's model, a CSS's clause) are dropped; a uuid
 * that is the alternative of names in a choice is left out for the names (the schema model flattens a
 * choice of `uuid | pattern, routePartitionName` into three alternatives); empty values are left out.
 */
export function shapeAs(xsd: XsdModel, field: XsdField, value: Json | undefined): Json | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (field.maxOccurs <= 1) return shapeAs(xsd, field, value[0]);
    const items = value.map((v) => shapeOne(xsd, field, v)).filter((v): v is Json => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  return shapeOne(xsd, field, value);
}

function shapeOne(xsd: XsdModel, field: XsdField, value: Json): Json | undefined {
  const kids = xsd.children(field);
  if (kids.length === 0) {
    const text = keyText(value);
    return text === undefined || text === '' ? undefined : text;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return shapeFields(xsd, kids, value);
}

/** An object of `fields` from `value`; undefined when none of them is present. */
function shapeFields(
  xsd: XsdModel,
  fields: readonly XsdField[],
  value: Record<string, Json>,
): Record<string, Json> | undefined {
  const out: Record<string, Json> = {};
  for (const f of fields) {
    const v = shapeAs(xsd, f, value[f.name]);
    if (v !== undefined) out[f.name] = v;
  }
  for (const f of fields) {
    const others = f.choice?.alternatives.filter((a) => a !== f.name) ?? [];
    if (f.name === 'uuid' && others.some((a) => a in out)) delete out.uuid;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
