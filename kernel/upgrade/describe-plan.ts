import type { FileAction, UpgradePlan } from './plan.ts';

const SECTIONS: { action: FileAction; title: string }[] = [
  { action: 'replace', title: 'Files replaced' },
  { action: 'create', title: 'Files created' },
  { action: 'delete', title: 'Files deleted' },
  { action: 'unchanged', title: 'Files unchanged' },
  { action: 'absent', title: 'Files to delete that are already gone' },
];

/**
 * The plan as the operator reads it, for --dry-run and before the confirmation: every file by action,
 * the .env changes (a kept value is never printed: it may be a secret), the changelog and the steps
 * to take afterwards.
 */
export function describePlan(plan: UpgradePlan): string {
  const out: string[] = [
    `Upgrade ${plan.product} ${plan.from} -> ${plan.to}`,
    `  installation  ${plan.root}`,
    `  package       ${plan.package.file}`,
    `  signed by     ${plan.package.signer.id} (key SHA-256 ${plan.package.signer.fingerprint})`,
    `  SHA-512       ${plan.package.sha512}`,
    '',
  ];
  const count = (a: FileAction): number => plan.files.filter((f) => f.action === a).length;
  out.push(
    `Files: ${count('replace')} replaced, ${count('create')} created, ${count('delete')} deleted, ` +
      `${count('unchanged')} unchanged`,
  );
  for (const s of SECTIONS) {
    const paths = plan.files.filter((f) => f.action === s.action).map((f) => f.path);
    if (paths.length === 0) continue;
    out.push(`${s.title} (${paths.length}):`, ...paths.map((p) => `  ${p}`));
  }
  out.push('', ...describeEnv(plan), '', 'Changelog:');
  out.push(
    ...(plan.changelog.trim()
      ? plan.changelog
          .trimEnd()
          .split('\n')
          .map((l) => `  ${l}`)
      : ['  (none)']),
  );
  out.push('', 'After the upgrade:');
  out.push(
    ...(plan.postUpgrade.length ? plan.postUpgrade.map((s, i) => `  ${i + 1}. ${s}`) : ['  (nothing)']),
  );
  return `${out.join('\n')}\n`;
}

function describeEnv(plan: UpgradePlan): string[] {
  if (!plan.env.exists)
    return [`.env: ${plan.env.file} does not exist; nothing to merge (the defaults apply)`];
  const added = plan.env.changes.filter((c) => c.change === 'added');
  const overwritten = plan.env.changes.filter((c) => c.change === 'overwritten');
  const kept = plan.env.changes.filter((c) => c.change === 'kept');
  const lines = [
    `.env (${plan.env.file}): ${added.length} added, ${overwritten.length} overwritten, ${kept.length} kept`,
  ];
  for (const c of overwritten) lines.push(`  overwritten ${c.key}: ${c.from ?? ''} -> ${c.to ?? ''}`);
  for (const c of added) lines.push(`  added       ${c.key}=${c.to ?? ''}`);
  if (kept.length > 0) lines.push(`  kept        ${kept.map((c) => c.key).join(', ')}`);
  return lines;
}
