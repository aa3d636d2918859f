import { serviceControlTool } from '../../_shared/tools/service-control.ts';

export default serviceControlTool('cuc');
