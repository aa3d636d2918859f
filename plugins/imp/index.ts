import { definePlugin } from '../../kernel/sdk/index.ts';
import { completeAxlArgument } from '../_shared/tools/axl-completion.ts';
import { impAuditPrompts, impAuditResources } from './audit/index.ts';
import { setupImp, teardownImp, type ImpShared } from './shared.ts';
import axlCall from './tools/axl-call.ts';
import checkConnectivity from './tools/check-connectivity.ts';
import changeHistory from './tools/change-history.ts';
import undoChange from './tools/undo-change.ts';
import deleteCredentials from './tools/delete-credentials.ts';
import downloadAxlToolkit from './tools/download-axl-toolkit.ts';
import getVersion from './tools/get-version.ts';
import listAxlOperations from './tools/list-axl-operations.ts';
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

/** IM&P: AXL (presence operations) and the VOS CLI over SSH, with the CUCM plugin's shared clients. */
export default definePlugin<ImpShared>({
  id: 'imp',
  version: '1.0.0',
  kernel: '^1',
  product: 'imp',
  module: 'imp',
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
    listAxlOperations,
    axlCall,
    downloadAxlToolkit,
    osRunCommand,
    ...serviceabilityTools('imp', 'imp_os_trust_fingerprint'),
    checkConnectivity,
    changeHistory,
    undoChange,
  ],
  files: [logFiles<ImpShared>('imp')],
  prompts: impAuditPrompts,
  resources: impAuditResources,
  setup: setupImp,
  teardown: teardownImp,
  completeArgument: completeAxlArgument,
});
