import { perfmonListCountersTool } from '../../_shared/tools/perfmon-list-counters.ts';

export default perfmonListCountersTool('imp');
