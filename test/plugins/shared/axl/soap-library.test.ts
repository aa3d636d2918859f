// strong-soap loads on the first AXL schema parse, not at startup: the real kernel in a child process,
// then the loader's sharing and its coded failure.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { AXLError } from '../../../../kernel/sdk/index.ts';
import {
  lazySoapLibrary,
  soapMessages,
  type SoapLibrary,
} from '../../../../plugins/_shared/axl/soap-library.ts';

const require = createRequire(import.meta.url);
const PROBE = join(import.meta.dirname, 'soap-load-probe.ts');

function runProbe(): Promise<Record<string, boolean>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PROBE], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`probe exited with ${code}: ${out}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, boolean>);
    });
  });
}

describe("strong-soap's messages without strong-globalize", () => {
  it('formats every kind of message strong-soap sends exactly as strong-globalize does', () => {
    // strong-soap/src/globalize.js, as strong-soap sets it up (here, apart from the module cache).
    const SG = require('strong-globalize') as {
      SetRootDir(dir: string, o: object): void;
      (): { f(text: string, ...args: unknown[]): string };
    };
    SG.SetRootDir(dirname(require.resolve('strong-soap/package.json')), { autonomousMsgLoading: 'all' });
    const g = SG();
    for (const [text, ...args] of [
      ['Unexpected root element of {{WSDL}} or include'],
      ['Invalid qname: %s', 'a:b:c'],
      ['{{WSDL}} style not supported: %s', 'document/encoded'],
      ['Found unexpected element (%s) inside %s', 'x', 'y'],
      ['The field %s cannot have value %s due to the violations: %s', 'f', 5, '["v"]'],
      ['{{key}} should be a {{buffer}} or a {{string}}!'],
      ['Invalid {{WSDL URL}}: %s\n\n\r Code: %s\n\n\r Response Body: %j', 'u', 404, { a: 1 }],
    ] as [string, ...unknown[]][]) {
      assert.equal(soapMessages.f(text, ...args), g.f(text, ...args), text);
    }
  });
});

describe('strong-soap is loaded on first use', () => {
  it('a kernel with every shipped plugin starts and answers other tools without it; an AXL call loads it', async () => {
    // afterAxlCall also proves the probe sees a load: the same check that reads false before reads true.
    assert.deepEqual(await runProbe(), {
      afterStartup: false,
      afterOtherTools: false,
      afterAxlCall: true,
      globalizeAfterAxlCall: false,
    });
  });

  it('concurrent first uses share one load', async () => {
    let loads = 0;
    const lib = {} as SoapLibrary;
    const load = lazySoapLibrary(() => {
      loads++;
      return lib;
    });
    const [a, b] = await Promise.all([load(), load()]);
    assert.equal(a, lib);
    assert.equal(b, lib);
    assert.equal(await load(), lib);
    assert.equal(loads, 1);
  });

  it('a failed load is an AXLError naming the library, and the next use tries again', async () => {
    let loads = 0;
    const load = lazySoapLibrary(() => {
      loads++;
      if (loads === 1) throw new Error("Cannot find module 'strong-soap'\nRequire stack:\n- /somewhere");
      return {} as SoapLibrary;
    });
    await assert.rejects(load(), (e: unknown) => {
      assert.ok(e instanceof AXLError);
      assert.equal(e.code, 'AXLError');
      assert.equal(
        e.message,
        "the AXL library (strong-soap) could not be loaded: Cannot find module 'strong-soap'",
      );
      return true;
    });
    await load();
    assert.equal(loads, 2);
  });
});
