// The one change table: every call a write-capable tool can make (an AXL operation, a CUPI method and
// path, a VOS CLI command, a Control Center action) is `read`, `change` or `destructive`. The rows and
// why each class was chosen are in the *-table.ts files beside this one (and docs/change-classes.md);
// anything they do not name is destructive, never read.
import type { ChangeClass } from '../../../kernel/sdk/index.ts';
import {
  AXL_OPERATION_RULES,
  AXL_PREFIX_RULES,
  AXL_SECRET_FIELDS,
  AXL_SECRET_UPDATE,
  AXL_UNKNOWN,
} from './axl-table.ts';
import type { ChangeRule } from './change-rule.ts';
import { CLI_CHAINED, CLI_RULES, CLI_UNKNOWN } from './cli-table.ts';
import { CUPI_METHOD_RULES, CUPI_PATH_RULES, CUPI_UNKNOWN } from './cupi-table.ts';
import { SERVICE_CONTROL_RULES } from './service-table.ts';

/** A call's class, the row that gave it and why (the row's justification). */
export interface Classification {
  readonly class: ChangeClass;
  /** The row: `prefix get`, `operation doLdapSync`, `method DELETE`, `command utils service stop`... */
  readonly rule: string;
  readonly why: string;
}

function of(rule: string, r: ChangeRule): Classification {
  return { class: r.class, rule, why: r.why };
}

/**
 * One AXL operation, by name; with the request's arguments, an update that sets a secret is
 * destructive (the old one cannot be put back).
 */
export function classifyAxl(operation: string, args?: Record<string, unknown>): Classification {
  const exact = Object.hasOwn(AXL_OPERATION_RULES, operation) ? AXL_OPERATION_RULES[operation] : undefined;
  if (exact) return of(`operation ${operation}`, exact);
  const m = /^([a-z]+)[A-Z]/.exec(operation);
  const prefix = m?.[1];
  const rule = prefix && Object.hasOwn(AXL_PREFIX_RULES, prefix) ? AXL_PREFIX_RULES[prefix] : undefined;
  if (!prefix || !rule) return of('unknown operation', AXL_UNKNOWN);
  if (prefix === 'update' && args && Object.keys(args).some((k) => AXL_SECRET_FIELDS.has(k)))
    return of('update setting a secret', AXL_SECRET_UPDATE);
  return of(`prefix ${prefix}`, rule);
}

/** One CUPI request: its method and canonical path (as the path policy gives it). */
export function classifyCupi(method: string, path: string): Classification {
  const verb = method.toUpperCase();
  const below = path.replace(/^\/vmrest\//, '').toLowerCase();
  for (const r of CUPI_PATH_RULES) {
    if (r.methods.includes(verb) && r.path.test(below)) return of(`path ${verb} ${r.path.source}`, r);
  }
  const rule = Object.hasOwn(CUPI_METHOD_RULES, verb) ? CUPI_METHOD_RULES[verb] : undefined;
  return rule ? of(`method ${verb}`, rule) : of('unknown method', CUPI_UNKNOWN);
}

/** Whether the row's words start the command's words (`*` stands for any one word). */
function prefixMatches(prefix: string[], words: string[]): boolean {
  return prefix.length <= words.length && prefix.every((w, i) => w === '*' || w === words[i]);
}

/** One VOS CLI command line, as typed: the longest matching row wins; none is destructive. */
export function classifyCli(command: string): Classification {
  const words = command.trim().toLowerCase().split(/\s+/);
  let best: (typeof CLI_RULES)[number] | undefined;
  let bestLength = 0;
  for (const r of CLI_RULES) {
    const prefix = r.prefix.split(' ');
    if (prefix.length > bestLength && prefixMatches(prefix, words)) {
      best = r;
      bestLength = prefix.length;
    }
  }
  if (!best) return of('unknown command', CLI_UNKNOWN);
  if (best.class === 'read' && command.includes(';')) return of('chained command', CLI_CHAINED);
  return of(`command ${best.prefix}`, best);
}

/** A Control Center action on services (soapDoControlServices). */
export function classifyServiceControl(action: 'start' | 'stop' | 'restart'): Classification {
  return of(`control ${action}`, SERVICE_CONTROL_RULES[action]);
}

/** What each write-capable tool's description says of the classes (one sentence, one wording). */
export const CHANGE_CLASS_NOTE =
  "Each call is classed read, change or destructive (removes something, interrupts service or cannot be put back) from the server's change table, and the answer says which in change_class.";
