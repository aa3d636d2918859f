export type {
  CertificateAttack,
  HostileOptions,
  HostileStats,
  HugeAnswer,
  SshAttack,
  ToolkitAttack,
  XmlAttack,
} from './switches.ts';
export { HostileSwitches } from './switches.ts';
export { BOMB_BYTES, canaryPath, MANY_ENTRIES } from './toolkit.ts';
export { ENDLESS_BYTES } from './huge-answer.ts';
export { DEFAULT_XML_TARGET } from './xml.ts';
