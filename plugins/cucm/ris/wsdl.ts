// What this client needs of the RisPort70 WSDL: that it is one (namespace, selectCmDevice), its
// operations and their SOAPAction. Read with the same entity-free parser as answers.
import { RISError } from '../../../kernel/sdk/index.ts';
import { RIS_NAMESPACE } from './constants.ts';
import { child, list, parseUntrusted } from './xml-text.ts';

export interface RisWsdl {
  operations: string[];
  /** SOAPAction per operation, from the binding; absent ones fall back to the operation name. */
  soapActions: ReadonlyMap<string, string>;
}

const ARRAYS = new Set(['portType', 'binding', 'operation']);

/** Validates and reads a RisPort70 WSDL; anything else (an HTML login page, another service) is refused. */
export function readRisWsdl(xml: string, source: string): RisWsdl {
  const doc = parseUntrusted(xml, `the WSDL from ${source}`, { arrays: ARRAYS, attributes: true });
  const root = child(doc, 'definitions');
  if (!root) throw new RISError(`${source} did not answer a WSDL document (no wsdl:definitions)`);
  const ns = root['@targetNamespace'];
  if (ns !== RIS_NAMESPACE) {
    throw new RISError(
      `the WSDL from ${source} is not RisPort70's (target namespace ${typeof ns === 'string' ? `"${ns.slice(0, 100)}"` : 'missing'}, expected ${RIS_NAMESPACE})`,
    );
  }
  const operations = [
    ...new Set(
      list(root.portType)
        .flatMap((p) => list(p.operation))
        .map((o) => o['@name'])
        .filter((n): n is string => typeof n === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,127}$/.test(n)),
    ),
  ].sort();
  if (!operations.includes('selectCmDevice')) {
    throw new RISError(`the WSDL from ${source} has no selectCmDevice operation; not a RisPort70 WSDL`);
  }
  const soapActions = new Map<string, string>();
  for (const op of list(root.binding).flatMap((b) => list(b.operation))) {
    const name = op['@name'];
    const action = list(op.operation)[0]?.['@soapAction'];
    if (typeof name === 'string' && typeof action === 'string' && action !== '' && !/["\r\n]/.test(action)) {
      soapActions.set(name, action);
    }
  }
  return { operations, soapActions };
}
