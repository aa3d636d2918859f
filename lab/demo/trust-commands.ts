// What `npm run demo` prints to trust the demo server's local CA (secrets/ca_cert.pem) once, so every
// client connects with certificate verification on: the system stores (which Claude Code's native
// build, browsers and most tools use) and NODE_EXTRA_CA_CERTS for Node programs. docs/tls-trust.md
// explains each line and how to remove the CA again.
import { shellWord } from './shell-word.ts';

/** The name the CA is filed under in the Linux trust stores (a stable name, so trusting it again replaces it). */
const STORE_NAME = 'uc-mcp-demo-ca';

/** One command per platform, labelled: `[label, command]`. */
export function trustCommands(caFile: string): [string, string][] {
  const ca = shellWord(caFile);
  return [
    [
      'Debian/Ubuntu',
      `sudo cp ${ca} /usr/local/share/ca-certificates/${STORE_NAME}.crt && sudo update-ca-certificates`,
    ],
    [
      'RHEL/Fedora',
      `sudo cp ${ca} /etc/pki/ca-trust/source/anchors/${STORE_NAME}.pem && sudo update-ca-trust`,
    ],
    ['macOS', `sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${ca}`],
    ['Windows', 'certutil -addstore -f Root ca_cert.pem   (the file copied over; an administrator prompt)'],
    ['Node clients', `export NODE_EXTRA_CA_CERTS=${ca}`],
  ];
}

/** The block the demo prints. */
export function trustInstructions(caFile: string): string {
  const rows = trustCommands(caFile)
    .map(([label, command]) => `  ${label.padEnd(14)} ${command}`)
    .join('\n');
  return `Trust the demo's CA once (verification stays on; docs/tls-trust.md also says how to remove it):
${rows}
  Claude Code: the native build uses the system store (a line above); installed with npm, it takes
  NODE_EXTRA_CA_CERTS. Restart a client after trusting the CA.
`;
}
