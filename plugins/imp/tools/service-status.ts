import { serviceStatusTool } from '../../_shared/tools/service-status.ts';

export default serviceStatusTool('imp');
