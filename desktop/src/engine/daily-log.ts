/**
 * A log file per day for support ('av-uploader-2026-11-24.log' under the app's data folder): one JSON
 * line per event (sign-ins, submissions, failures, watch folders), the last KEEP_DAYS days kept. Writes
 * are appended synchronously: a few lines a minute, and a line written just before a crash is there.
 * Tokens and passwords are never passed in.
 */
import { appendFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export const KEEP_DAYS = 14;
const NAME = /^av-uploader-(\d{4}-\d{2}-\d{2})\.log$/;

export type LogLevel = 'info' | 'warn' | 'error';

export class DailyLog {
  private prunedFor: string | null = null;

  constructor(
    readonly dir: string,
    private readonly now: () => Date = () => new Date(),
    private readonly keepDays = KEEP_DAYS,
  ) {}

  /** The file for a day (today by default), in local time as the user reads it. */
  path(at: Date = this.now()): string {
    return path.join(this.dir, `av-uploader-${day(at)}.log`);
  }

  write(level: LogLevel, message: string, data: Record<string, unknown> = {}): void {
    const at = this.now();
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (this.prunedFor !== day(at)) this.prune(at);
      appendFileSync(
        this.path(at),
        `${JSON.stringify({ time: at.toISOString(), level, msg: message, ...data })}\n`,
        {
          mode: 0o600,
        },
      );
    } catch {
      // A log that cannot be written must never stop an upload.
    }
  }

  private prune(at: Date): void {
    this.prunedFor = day(at);
    const oldest = day(new Date(at.getTime() - (this.keepDays - 1) * 86_400_000));
    for (const name of readdirSync(this.dir)) {
      const match = NAME.exec(name);
      if (match && match[1]! < oldest) rmSync(path.join(this.dir, name), { force: true });
    }
  }
}

function day(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
