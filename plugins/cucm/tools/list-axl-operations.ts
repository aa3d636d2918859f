import { listAxlOperationsTool } from '../../_shared/tools/list-axl-operations.ts';

export default listAxlOperationsTool('cucm', 'cucm_download_axl_toolkit');
