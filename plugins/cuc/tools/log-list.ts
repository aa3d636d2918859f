import { logListTool } from '../../_shared/tools/log-list.ts';

export default logListTool('cuc');
