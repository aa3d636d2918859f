import { trustFingerprintTool } from '../../_shared/tools/trust-fingerprint.ts';

export default trustFingerprintTool('cucm');
