import { definePlugin } from '../../kernel/sdk/index.ts';
import { completeAxlArgument } from '../_shared/tools/axl-completion.ts';
import { cucmAuditPrompts, cucmAuditResources } from './audit/index.ts';
import { cucmHealthPrompts } from './health/index.ts';
import { setupCucm, teardownCucm, type CucmShared } from './shared.ts';
import axlCall from './tools/axl-call.ts';
import checkConnectivity from './tools/check-connectivity.ts';
import changeHistory from './tools/change-history.ts';
import undoChange from './tools/undo-change.ts';
import deleteCredentials from './tools/delete-credentials.ts';
import downloadAxlToolkit from './tools/download-axl-toolkit.ts';
import downloadRisToolkit from './tools/download-ris-toolkit.ts';
import getVersion from './tools/get-version.ts';
import listAxlOperations from './tools/list-axl-operations.ts';
import listCredentials from './tools/list-credentials.ts';
import osDeleteCredentials from './tools/os-delete-credentials.ts';
import osRunCommand from './tools/os-run-command.ts';
import cdrFiles from './tools/cdr-files.ts';
import cdrGet from './tools/cdr-get.ts';
import { logFiles } from '../_shared/serviceability/logs/store.ts';
import { serviceabilityTools } from '../_shared/tools/serviceability-tools.ts';
import osStoreCredentials from './tools/os-store-credentials.ts';
import osTrustFingerprint from './tools/os-trust-fingerprint.ts';
import osUpdateCredentials from './tools/os-update-credentials.ts';
import phoneDeleteCredentials from './tools/phone-delete-credentials.ts';
import phoneScreenshot from './tools/phone-screenshot.ts';
import phoneStoreCredentials from './tools/phone-store-credentials.ts';
import phoneUpdateCredentials from './tools/phone-update-credentials.ts';
import risportQuery from './tools/risport-query.ts';
import storeCredentials from './tools/store-credentials.ts';
import updateCredentials from './tools/update-credentials.ts';
import trustCertificate from './tools/trust-certificate.ts';

/** CUCM: AXL, RisPort70, the VOS CLI over SSH and phone screenshots (the spec's 20 cucm_ tools). */
export default definePlugin<CucmShared>({
  id: 'cucm',
  version: '1.0.0',
  kernel: '^1',
  product: 'cucm',
  module: 'cucm',
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
    downloadRisToolkit,
    risportQuery,
    osRunCommand,
    ...serviceabilityTools('cucm', 'cucm_os_trust_fingerprint'),
    cdrFiles,
    cdrGet,
    checkConnectivity,
    changeHistory,
    undoChange,
    phoneStoreCredentials,
    phoneUpdateCredentials,
    phoneDeleteCredentials,
    phoneScreenshot,
  ],
  files: [logFiles<CucmShared>('cucm')],
  prompts: [...cucmAuditPrompts, ...cucmHealthPrompts],
  resources: cucmAuditResources,
  setup: setupCucm,
  teardown: teardownCucm,
  completeArgument: completeAxlArgument,
});
