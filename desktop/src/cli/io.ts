/** Where a command writes: lines for people (stdout, stderr) or JSON lines (stdout), chosen once per run. */
export interface Io {
  json: boolean;
  out(line: string): void;
  err(line: string): void;
  event(record: Record<string, unknown>): void;
}

export function io(json: boolean): Io {
  return {
    json,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    event: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
  };
}
