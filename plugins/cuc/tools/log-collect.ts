import { logCollectTool } from '../../_shared/tools/log-collect.ts';

export default logCollectTool('cuc');
