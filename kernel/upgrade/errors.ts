/**
 * Where an upgrade was refused. Everything up to `install` happens before the installation is touched;
 * `apply` means the change was rolled back from the rollback record.
 */
export type RefusalStage =
  'checksum' | 'signature' | 'archive' | 'manifest' | 'version' | 'install' | 'backup' | 'apply';

/** An upgrade that must not (or could not) go ahead, with a message meant for the operator. */
export class UpgradeRefused extends Error {
  readonly stage: RefusalStage;
  constructor(stage: RefusalStage, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UpgradeRefused';
    this.stage = stage;
  }
}
