// The tool's handler with a real vault and the lab phones: what an MCP client gets back. The MCP
// end-to-end test (through a real client and the kernel's runner) lives with the plugin's e2e tests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { CredentialError, z, type ToolContext } from '../../../../kernel/sdk/index.ts';
import type { ClientVault } from '../../../../kernel/sdk/index.ts';
import type { Lab } from '../../../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode } from '../../../../lab/index.ts';
import type { CucmShared } from '../../../../plugins/cucm/shared.ts';
import tool from '../../../../plugins/cucm/tools/phone-screenshot.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { startTestLab } from '../../../lab/helpers.ts';

/** The handler reads only the caller's vault; the rest of the context is not reached. */
function contextWith(vault: ClientVault): ToolContext<CucmShared> {
  return { vault, shared: {} } as Partial<ToolContext<CucmShared>> as ToolContext<CucmShared>;
}

describe('cucm_phone_screenshot handler', () => {
  let lab: Lab;
  let vault: VaultFixture;
  before(async () => {
    lab = await startTestLab();
    vault = vaultFixture();
  });
  after(async () => {
    await lab.stop();
    await vault.cleanup();
  });

  it('is declared as a read-only, open-world phone tool for auditors and up', () => {
    assert.equal(tool.name, 'phone_screenshot');
    assert.deepEqual(tool.access, { minProfile: 'auditor' });
    assert.equal(tool.service, 'phone');
    assert.equal(tool.annotations.readOnlyHint, true);
    assert.equal(tool.annotations.openWorldHint, true);
    assert.equal(tool.annotations.destructiveHint, false);
    assert.match(
      tool.description,
      /unencrypted/,
      'the description warns that plain HTTP sends Basic in clear',
    );
    const input = z.object(tool.input);
    assert.equal(input.safeParse({ host: 'sep.example', timeout_s: 0 }).success, false);
    assert.equal(input.safeParse({}).success, false);
  });

  it("returns the BMP phone's screen as MCP image content (PNG, base64) with its size and source format", async () => {
    const phone = labNode(lab.info, 'phone', 'SEP0A1B2C3D4E02');
    const view = vault.vault.forClient('alice');
    await view.store('cucm', 'phone', phone.address, {
      username: DEMO_CREDENTIALS.phone.user,
      password: DEMO_CREDENTIALS.phone.password,
    });
    const input = z.object(tool.input).parse({ host: phone.address });
    const reply = await tool.handler(input, contextWith(view));

    const [block, ...rest] = reply.content ?? [];
    assert.equal(rest.length, 0);
    assert.ok(block?.type === 'image', 'one image block');
    assert.equal(block.mimeType, 'image/png');
    const png = Buffer.from(block.data, 'base64');
    const decoded = PNG.sync.read(png);
    assert.deepEqual([decoded.width, decoded.height], [320, 222]);
    assert.deepEqual(reply.structured, {
      host: phone.address,
      width: 320,
      height: 222,
      source_format: 'bmp',
      bytes: png.length,
    });
  });

  it("uses only the calling client's credential: another client without one gets a CredentialError", async () => {
    const phone = labNode(lab.info, 'phone', 'SEP0A1B2C3D4E01');
    const input = z.object(tool.input).parse({ host: phone.address });
    await assert.rejects(
      tool.handler(input, contextWith(vault.vault.forClient('bob'))),
      (err: unknown) => err instanceof CredentialError && /no phone credentials are stored/.test(err.message),
    );
    const view = vault.vault.forClient('bob');
    await view.store('cucm', 'phone', phone.address, {
      username: DEMO_CREDENTIALS.phone.user,
      password: 'wrong',
    });
    await assert.rejects(
      tool.handler(input, contextWith(view)),
      (err: unknown) => err instanceof CredentialError && /HTTP 401/.test(err.message),
    );
  });
});
