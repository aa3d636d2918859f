import { getVersionTool } from '../../_shared/tools/get-version.ts';

export default getVersionTool('cucm');
