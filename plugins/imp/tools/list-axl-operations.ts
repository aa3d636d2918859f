import { listAxlOperationsTool } from '../../_shared/tools/list-axl-operations.ts';

export default listAxlOperationsTool('imp', 'imp_download_axl_toolkit');
