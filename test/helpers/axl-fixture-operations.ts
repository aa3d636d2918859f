// The real CUCM AXL 15.0 operation names from ../shared/fixtures (Cisco's schema, never in the project).
import { readFileSync } from 'node:fs';
import { fixture } from '../lab/helpers.ts';

/** The real 15.0 operation names, sorted, or undefined on a fresh clone (no Cisco schema beside it). */
export function realAxlOperations(): string[] | undefined {
  const wsdl = fixture('cucm-axl-schema', '15.0', 'AXLAPI.wsdl');
  if (!wsdl) return undefined;
  const text = readFileSync(wsdl, 'utf8');
  return [
    ...new Set(
      [...text.matchAll(/<(?:wsdl:)?operation\s+name="([A-Za-z0-9]+)"/g)].map((m) => m[1] as string),
    ),
  ].sort();
}
