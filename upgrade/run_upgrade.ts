// The upgrade runner (functional spec, Versioning 2). The vendor ships it beside each package; it sits
// with the package in <installation>/upgrade/ and runs the INSTALLED kernel's `upgrade` command, so the
// code that verifies a package is the code the installation already trusts, never code from the package.
//
//   node --import tsx upgrade/run_upgrade.ts --dry-run
//   node --import tsx upgrade/run_upgrade.ts --expect-sha512 <published hex>
//
// Options and exit codes: `node --import tsx upgrade/run_upgrade.ts --help`; the procedure: upgrade/README.md.
import { runCommand } from '../kernel/cli/run-script.ts';

await runCommand('upgrade');
