import type { IntegrityReport } from './types.ts';

/** The report as an operator reads it: status, then every affected file with both hashes, then bundles. */
export function formatIntegrityReport(report: IntegrityReport): string {
  const lines = [
    `integrity: ${report.status}${report.reason ? ` (${report.reason})` : ''}`,
    `publisher: ${report.publisher ?? '(none)'}`,
    `files checked: ${report.filesChecked} in ${report.durationMs} ms, at ${report.checkedAt}`,
  ];
  if (report.files.length > 0) {
    lines.push(`affected files (${report.files.length}):`);
    for (const f of report.files) {
      lines.push(`  ${f.state.padEnd(9)} ${f.path}${f.bundle ? `  [bundle ${f.bundle}]` : ''}`);
      lines.push(`            expected ${f.expected ?? '-'}`);
      lines.push(`            actual   ${f.actual ?? '-'}`);
    }
  }
  const bundles = Object.values(report.bundles);
  if (bundles.length > 0) {
    lines.push('bundles:');
    for (const b of bundles) {
      const who = [b.source === 'none' ? 'no signature' : `signed via ${b.source}`, b.publisher, b.version]
        .filter(Boolean)
        .join(', ');
      lines.push(`  ${b.id.padEnd(20)} ${b.status.padEnd(9)} ${who}${b.reason ? ` - ${b.reason}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
