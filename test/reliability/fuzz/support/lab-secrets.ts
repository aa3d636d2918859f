import type { LabInfo } from '../../../../lab/index.ts';

/** The lab nodes' passwords by name, as needles: no tool answer may ever show one. */
export function labPasswords(info: LabInfo): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of info.nodes)
    for (const [kind, cred] of Object.entries(node.credentials))
      if (cred?.password) out[`${node.name} ${kind} password`] = cred.password;
  return out;
}
