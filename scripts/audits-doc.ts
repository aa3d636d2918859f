// `npm run docs:audits`: writes docs/audits.md from the three security-audit checklists: per check its
// evidence (the tool and the names it relies on), the vendor sources that confirm them, benchmark ids,
// whether every name is verified, and the lab weaknesses that make it fire. Generated, never edited by
// hand: a test fails when the file differs from what this script writes.
//   node --import tsx scripts/audits-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../kernel/paths.ts';
import { weaknessesOf, type WeaknessProduct } from '../lab/weaknesses/index.ts';
import type { Check, Checklist, EvidenceCall } from '../plugins/_shared/audit/checklist.ts';
import { cliToolCommands } from '../plugins/_shared/audit/cli-tool-evidence.ts';
import { CUC_CHECKLIST } from '../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../plugins/imp/audit/checklist.ts';

export const AUDITS_DOC = join(PROJECT_ROOT, 'docs', 'audits.md');
const CHECKLISTS: readonly Checklist[] = [CUCM_CHECKLIST, IMP_CHECKLIST, CUC_CHECKLIST];
const PRODUCT_NAME = { cucm: 'CUCM', imp: 'IM&P', cuc: 'Unity Connection' } as const;

/** Text safe inside one Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');
}

const code = (text: string): string => `\`${text.replaceAll('`', "'")}\``;

/** What one evidence call relies on: the SQL text, AXL operation, CLI command or CUPI resource. */
export function evidenceNames(e: EvidenceCall): string {
  const a = e.args;
  const inner = (a.args ?? {}) as Record<string, unknown>;
  if (e.tool.endsWith('_axl_call')) {
    if (a.operation === 'executeSQLQuery') return `SQL ${code(String(inner.sql))}`;
    const tags = Object.keys((inner.returnedTags ?? {}) as Record<string, unknown>);
    return `AXL ${code(String(a.operation))}${tags.length ? ` (returnedTags ${tags.join(', ')})` : ''}`;
  }
  if (e.tool.endsWith('_os_run_command')) return `CLI ${code(String(a.command))}`;
  // The CLI-parsed tools: the commands each runs (plugins/_shared/vos/drf-output.ts, cert-output.ts).
  const commands = cliToolCommands(e).map(code);
  if (e.tool.endsWith('_drf_status')) return `CLI ${commands.join(', ')} (parsed)`;
  if (e.tool.endsWith('_cert_list'))
    return `CLI ${commands[0] ?? ''}, then ${commands[1] ?? ''} per certificate (parsed)`;
  if (e.tool.endsWith('_service_status'))
    return `ControlCenterServices ${code('soapGetServiceStatus')} (every service of the node, parsed)`;
  if (e.tool === 'cuc_cupi_list')
    return `CUPI ${code(`GET /vmrest/${String(a.resource)}`)}${a.query ? ` query ${code(String(a.query))}` : ''}`;
  if (e.tool === 'cuc_cupi_call') return `CUPI ${code(`${String(a.method ?? 'GET')} ${String(a.path)}`)}`;
  if (e.tool.endsWith('_risport_query'))
    return `RisPort70 ${code('selectCmDevice')} (${Object.entries(a)
      .filter(([k]) => k !== 'host')
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ')})`;
  const rest = Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'host'));
  return `${code(e.tool)} ${code(JSON.stringify(rest))}`;
}

function references(c: Check): string {
  const refs = c.references ?? [];
  if (refs.length === 0) return '**none cited**';
  return refs
    .map(
      (r) =>
        `${r.document} (${r.release}), ${r.section}: <${r.url}>${r.confirms?.length ? ` (confirms ${r.confirms.map(code).join(', ')})` : ''}`,
    )
    .join('<br>');
}

function productSection(checklist: Checklist): string[] {
  const product = checklist.product as WeaknessProduct;
  const weaknesses = weaknessesOf(product);
  const rows = checklist.checks.map((c) => {
    const fired = weaknesses.filter((w) => w.check === c.id).map((w) => code(w.id));
    const evidence = c.evidence.map((e) => `${code(e.tool)}: ${evidenceNames(e)}`).join('<br>');
    return `| ${[
      c.id,
      c.title,
      evidence,
      references(c),
      (c.benchmarks ?? []).join(', ') || '-',
      c.unverified ? `**unverified**: ${c.unverified}` : 'verified',
      fired.join(', ') || '**none**',
    ]
      .map(cell)
      .join(' | ')} |`;
  });
  return [
    `## ${PRODUCT_NAME[product]} (\`${checklist.prompt}\`)`,
    '',
    `${checklist.checks.length} checks, ${checklist.checks.filter((c) => c.unverified).length} unverified, ${weaknesses.length} lab weaknesses.`,
    '',
    '| Check | Title | Evidence | References | Benchmarks | Names | Lab weaknesses that make it fire |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

/**
 * docs/audits.md as the checklists and the lab's weakness lists make it today. Its tables stay compact
 * (prettier would pad every row to the widest SQL text): the file is in .prettierignore, and its own
 * test holds it to this output.
 */
/** How an audit is kept from changing a node (issue 23): the same for every product, so written once. */
const READ_ONLY_SECTION = [
  '## Audits change nothing: run them with a read-only credential',
  '',
  'Every evidence call of the three audits is a read: `test/plugins/shared/audit/evidence-read-only.test.ts`',
  'classifies each one (tool and arguments) through the change table (docs/change-classes.md) and fails',
  'for a check whose evidence would write. To make sure of it on a real node, give the auditor',
  'credentials stored read-only in the vault (docs/vault.md, Read-only credentials): the server then',
  'refuses, before it is sent, every request made with them that is not a read, whatever tool makes it',
  '(`READ_ONLY_CREDENTIAL`, audited as DENIED).',
  '',
  "1. Store the node's credentials for the auditing client with `read_only: true`: the",
  '   `<product>_store_credentials` and `<product>_os_store_credentials` tools (or `_update_`), or the',
  "   operator's `ucmcp credentials store ... --read-only`. Where the product has one, use a node",
  '   account whose role only reads as well (on CUCM and IM&P, an application user with the "Standard',
  '   AXL Read Only API Access" role), so the node enforces it too.',
  '2. Check with `<product>_list_credentials`: each credential shows `read_only: true`; the',
  '   `CREDENTIAL` audit record of the store says `read_only: true`.',
  '3. Run the audit prompt (`cucm_security_audit`, `imp_security_audit`, `cuc_security_audit`). The',
  '   audits judge the same with read-only credentials as with writable ones',
  '   (`test/plugins/shared/audit/read-only-audit-<product>.e2e.test.ts`, against the lab).',
  '',
];

export function renderAuditsDoc(): string {
  const summary = CHECKLISTS.map(
    (c) =>
      `| ${PRODUCT_NAME[c.product as WeaknessProduct]} | ${c.checks.length} | ${c.checks.filter((x) => x.unverified).length} | ${c.checks.filter((x) => !(x.references ?? []).length).length} |`,
  );
  return [
    '# Security audits: checks, evidence and sources',
    '',
    '<!-- Generated by `npm run docs:audits` (scripts/audits-doc.ts) from the checklists in',
    'plugins/<product>/audit/ and the lab weaknesses in lab/weaknesses/. Do not edit by hand. -->',
    '',
    'Every check of the three security audits: the evidence it gathers (the tool, and the SQL text, AXL',
    'operation, CLI command or CUPI resource it relies on), the public sources that describe the control and',
    'confirm each name, public benchmark ids, whether every name is confirmed ("verified") or not',
    '("unverified", with the reason: read such a finding with care), and the lab weaknesses',
    '(`LAB_WEAKNESSES` ids) that make the check fire.',
    '',
    '| Product | Checks | Unverified | Without references |',
    '| --- | --- | --- | --- |',
    ...summary,
    '',
    ...READ_ONLY_SECTION,
    ...CHECKLISTS.flatMap(productSection),
  ].join('\n');
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const text = renderAuditsDoc();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(AUDITS_DOC, 'utf8');
    } catch {
      // Absent: differs.
    }
    if (current !== text) {
      process.stderr.write('docs/audits.md is out of date: run npm run docs:audits\n');
      process.exit(1);
    }
  } else {
    writeFileSync(AUDITS_DOC, text);
    process.stdout.write(`wrote ${AUDITS_DOC}\n`);
  }
}
