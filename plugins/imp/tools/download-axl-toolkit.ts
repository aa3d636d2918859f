import { downloadAxlToolkitTool } from '../../_shared/tools/download-axl-toolkit.ts';

export default downloadAxlToolkitTool('imp');
