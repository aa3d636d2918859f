// Regenerates the CUCM health report for the lab at the `site` scale, as the cucm_health_check prompt
// has an agent write it, and renders the PDF's first page to PNG (poppler's pdftoppm):
//   node --import tsx scripts/health-report.ts [output prefix, default /tmp/health-report]
// writes <prefix>.md, <prefix>.pdf and <prefix>-1.png. Everything runs on loopback and stops at the end.
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { healthStack, runHealthReport } from '../test/helpers/health-run.ts';

const prefix = process.argv[2] ?? '/tmp/health-report';
const s = await healthStack();
try {
  const r = await runHealthReport(s, 'cucm_health_check_lab.md');
  writeFileSync(`${prefix}.md`, r.report);
  copyFileSync(r.pdf, `${prefix}.pdf`);
  execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', `${prefix}.pdf`, prefix]);
  console.log(`${prefix}.md\n${prefix}.pdf\n${prefix}-1.png`);
} finally {
  await s.stop();
}
