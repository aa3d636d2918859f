import { definePlugin } from '../../kernel/sdk/index.ts';
import { cucAuditPrompts, cucAuditResources } from './audit/index.ts';
import { setupCuc, teardownCuc, type CucShared } from './shared.ts';
import checkConnectivity from './tools/check-connectivity.ts';
import changeHistory from './tools/change-history.ts';
import undoChange from './tools/undo-change.ts';
import cupiCall from './tools/cupi-call.ts';
import cupiList from './tools/cupi-list.ts';
import deleteCredentials from './tools/delete-credentials.ts';
import getVersion from './tools/get-version.ts';
import listCredentials from './tools/list-credentials.ts';
import osDeleteCredentials from './tools/os-delete-credentials.ts';
import osRunCommand from './tools/os-run-command.ts';
import { logFiles } from '../_shared/serviceability/logs/store.ts';
import { serviceabilityTools } from '../_shared/tools/serviceability-tools.ts';
import osStoreCredentials from './tools/os-store-credentials.ts';
import osTrustFingerprint from './tools/os-trust-fingerprint.ts';
import osUpdateCredentials from './tools/os-update-credentials.ts';
import storeCredentials from './tools/store-credentials.ts';
import updateCredentials from './tools/update-credentials.ts';
import trustCertificate from './tools/trust-certificate.ts';

/** Unity Connection: CUPI (REST under /vmrest/) and the VOS CLI over SSH. No AXL, no toolkit, no cluster. */
export default definePlugin<CucShared>({
  id: 'cuc',
  version: '1.0.0',
  kernel: '^1',
  product: 'cuc',
  module: 'cuc',
  requires: [],
  tools: [
    storeCredentials,
    osStoreCredentials,
    updateCredentials,
    osUpdateCredentials,
    deleteCredentials,
    osDeleteCredentials,
    osTrustFingerprint,
    trustCertificate,
    listCredentials,
    getVersion,
    cupiList,
    cupiCall,
    osRunCommand,
    ...serviceabilityTools('cuc', 'cuc_os_trust_fingerprint'),
    checkConnectivity,
    changeHistory,
    undoChange,
  ],
  files: [logFiles<CucShared>('cuc')],
  prompts: cucAuditPrompts,
  resources: cucAuditResources,
  setup: setupCuc,
  teardown: teardownCuc,
});
