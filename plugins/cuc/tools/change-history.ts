import { changeHistoryTool } from '../../_shared/tools/change-history.ts';

export default changeHistoryTool('cuc');
