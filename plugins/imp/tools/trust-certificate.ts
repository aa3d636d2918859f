import { trustCertificateTool } from '../../_shared/tools/trust-certificate.ts';

export default trustCertificateTool('imp');
