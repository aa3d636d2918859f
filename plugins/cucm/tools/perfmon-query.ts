import { perfmonQueryTool } from '../../_shared/tools/perfmon-query.ts';

export default perfmonQueryTool('cucm');
