import { axlCallTool } from '../../_shared/tools/axl-call.ts';

export default axlCallTool('cucm');
