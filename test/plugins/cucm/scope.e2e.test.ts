// Every cucm_ tool (the spec's 20, cucm_trust_certificate and issue 22's serviceability tools) is listed for a client in scope and
// refused, audited with the host, for an admin-profile client whose product scope leaves CUCM out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertRefusedOutsideScope,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

const SPEC_TOOLS = [
  'cucm_store_credentials',
  'cucm_os_store_credentials',
  'cucm_update_credentials',
  'cucm_os_update_credentials',
  'cucm_delete_credentials',
  'cucm_os_delete_credentials',
  'cucm_os_trust_fingerprint',
  // Issue 20: trust on first use of a node's HTTPS certificate, beside the spec's table.
  'cucm_trust_certificate',
  'cucm_list_credentials',
  'cucm_get_version',
  'cucm_list_axl_operations',
  'cucm_axl_call',
  'cucm_download_axl_toolkit',
  'cucm_download_ris_toolkit',
  'cucm_risport_query',
  'cucm_os_run_command',
  'cucm_check_connectivity',
  'cucm_phone_store_credentials',
  'cucm_phone_update_credentials',
  'cucm_phone_delete_credentials',
  'cucm_phone_screenshot',
  // Issue 22: the serviceability tools.
  'cucm_perfmon_list_counters',
  'cucm_perfmon_query',
  'cucm_service_status',
  'cucm_service_control',
  'cucm_drf_status',
  'cucm_cert_list',
  'cucm_cdr_files',
  'cucm_cdr_get',
  'cucm_trace_level',
  'cucm_log_list',
  'cucm_log_collect',
  // Issue 23: the change journal.
  'cucm_change_history',
  'cucm_undo_change',
];

describe('cucm tools and product scope', () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack({ scopedProducts: 'imp+cuc' });
  });
  after(async () => {
    await s.stop();
  });

  it('the admin lists exactly the spec table; the auditor the spec Profile column allows', async () => {
    const names = (await s.mcp.admin.client.listTools()).tools
      .map((t) => t.name)
      .filter((n) => n.startsWith('cucm_'));
    assert.deepEqual(names.sort(), [...SPEC_TOOLS].sort());
    const init = await s.ok('auditor', 'infra_init_session');
    const permitted = (init.tools as { name: string; permitted: boolean }[])
      .filter((t) => t.name.startsWith('cucm_') && t.permitted)
      .map((t) => t.name)
      .sort();
    assert.deepEqual(permitted, [
      'cucm_axl_call',
      'cucm_cdr_files',
      'cucm_cdr_get',
      'cucm_cert_list',
      'cucm_check_connectivity',
      'cucm_drf_status',
      'cucm_get_version',
      'cucm_list_axl_operations',
      'cucm_list_credentials',
      'cucm_log_list',
      'cucm_os_run_command',
      'cucm_perfmon_list_counters',
      'cucm_perfmon_query',
      'cucm_phone_screenshot',
      'cucm_risport_query',
      'cucm_service_status',
      'cucm_trace_level',
    ]);
  });

  it('every cucm_ tool is refused outside the product scope, before the node is touched', async () => {
    await assertRefusedOutsideScope(s, SPEC_TOOLS, s.node('cucm').name);
  });
});
