import path from 'node:path';
import type { Config } from '../../config.js';

export type MailTransportKind = 'smtp' | 'files';

/** Without SMTP_URL every message is written as an .eml file, so a fresh install never loses mail. */
export function mailTransportKind(config: Pick<Config, 'SMTP_URL'>): MailTransportKind {
  return config.SMTP_URL === undefined ? 'files' : 'smtp';
}

export function mailFilesDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'mail');
}
