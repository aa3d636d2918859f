// Adds to strong-soap's description of a request what only the XSD says: which fields must be sent,
// which are alternatives of a choice, and the values an enumerated field takes.
import type { FieldDescription } from './schema.ts';
import type { XsdField, XsdModel } from './xsd-model.ts';
import { isRequired } from './xsd-model.ts';

/** Enumeration values listed per field; longer lists (XProduct has hundreds) are cut, with their total. */
export const MAX_ENUMERATION = 64;

export function annotateFields(
  fields: readonly FieldDescription[],
  facts: readonly XsdField[],
  model: XsdModel,
): FieldDescription[] {
  return fields.map((field) => {
    const fact = facts.find((f) => f.name === field.name);
    if (!fact) return field;
    const out: FieldDescription = { ...field, required: isRequired(fact) };
    if (fact.choice) out.choice = { of: fact.choice.alternatives, required: fact.choice.required };
    const values = model.enumeration(fact);
    if (values && values.length > 0) {
      out.enumeration = values.slice(0, MAX_ENUMERATION);
      if (values.length > MAX_ENUMERATION) out.enumeration_total = values.length;
    }
    if (field.children) out.children = annotateFields(field.children, model.children(fact), model);
    return out;
  });
}
