// Realistic values by property name, so that fuzzed calls get past validation and into the handlers,
// the lab nodes and the report store, where hostile input does its damage.
import fc from 'fast-check';
import type { LabInfo } from '../../../../lab/index.ts';
import type { Hints } from './schema-arbitrary.ts';

export interface HintSources {
  lab: LabInfo;
  prompts: string[];
  docs: string[];
}

export function toolHints(tool: string, src: HintSources): Hints {
  const nodes = src.lab.nodes;
  const phones = nodes.filter((n) => n.product === 'phone').map((n) => n.name);
  const byProduct = (p: string): string[] => nodes.filter((n) => n.product === p).map((n) => n.name);
  const product = tool.split('_')[0] as string;
  const own = tool.includes('_phone_') ? phones : byProduct(product);
  const elsewhere = fc.constantFrom(
    'unknown-node.invalid',
    '127.0.0.1:1',
    ...own.map((h) => h.toUpperCase()),
  );
  const names = tool.startsWith('infra_get_prompt')
    ? src.prompts
    : tool.startsWith('infra_get_doc')
      ? src.docs
      : ['fuzz-report.md', 'audit-2026-11.md', 'notes.md', 'x.pdf'];
  return {
    host:
      own.length > 0
        ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: elsewhere })
        : elsewhere,
    query: tool.endsWith('cupi_list')
      ? fc.constantFrom('(alias startswith a)', '(alias is jsmith)', '(dtmfaccessid isnull)')
      : fc.constantFrom({ templateAlias: 'voicemailusertemplate' }, { rowsPerPage: 2 }),
    sort: fc.constantFrom('(alias asc)', '(lastname desc)'),
    command: fc.constantFrom(
      'show version active',
      'show status',
      'utils service list',
      'show network eth0',
      'run sql select name from device',
      'show   myself',
      'file list activelog /',
    ),
    path: fc.constantFrom(
      '/vmrest/users',
      '/vmrest/handlers/callhandlers',
      '/vmrest/usertemplates',
      '/vmrest/version',
    ),
    resource: fc.constantFrom('users', 'handlers/callhandlers', 'usertemplates', '/vmrest/users'),
    operation: tool.includes('risport')
      ? fc.constantFrom('selectCmDeviceExt', 'selectCmDevice')
      : fc.constantFrom(
          'getPhone',
          'listPhone',
          'getUser',
          'listUser',
          'executeSQLQuery',
          'getCCMVersion',
          'updatePhone',
        ),
    args: fc.oneof(
      fc.constant({ name: phones[0] ?? 'SEP0A1B2C3D4E01' }),
      fc.constant({ sql: 'select name from device' }),
      fc.constant({ searchCriteria: { name: '%' }, returnedTags: { name: '', description: '' } }),
      fc.constant({ userid: 'jsmith' }),
      fc.record({
        name: fc.constantFrom(...phones, 'SEPFFFFFFFFFFFF'),
        description: fc.string({ maxLength: 40 }),
      }),
    ),
    sql: fc.constantFrom('select name from device', 'select count(*) from enduser'),
    select_items: fc.array(fc.constantFrom(...phones, '*', 'SEP0A1B*'), { minLength: 1, maxLength: 3 }),
    name: fc.constantFrom(...(names.length > 0 ? names : ['x'])),
    content: fc.constantFrom('# Findings\n\nnone\n', '## Section\ntext\n', ''),
    anchor: fc.constantFrom('# Findings', '## Section'),
    username: fc.constantFrom('fuzzuser', 'axladmin'),
    password: fc.constantFrom('Fuzz-Pass-1!'),
    address: fc.constantFrom('127.0.0.1:1', 'unknown-node.invalid:8443'),
    ca_cert_pem: fc.constant(src.lab.caCertPem),
    fingerprint: fc.constantFrom(
      ...nodes.map((n) => n.sshHostKeyFingerprint).filter((f): f is string => typeof f === 'string'),
      'SHA256:AAAA',
    ),
    timeout_s: fc.constantFrom(5, 10),
    version: fc.constantFrom('15.0', '14.0', '12.5'),
  };
}
