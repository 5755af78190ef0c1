/**
 * The paths a person hands the engine (dropped on the window, typed after `av-upload upload`), checked on
 * this machine before anything is queued: each must exist and be readable, a folder is walked. A path that
 * fails is refused at once with its name and the reason in words, so nobody learns of a typo or a locked
 * file from a raw `ENOENT` minutes later, when the server is reached.
 */
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { inOrder } from '@avp/shared';
import type { FileIdentity } from './file-source.js';

export interface RefusedPath {
  path: string;
  /** Why, in words: "does not exist", "cannot be read: permission denied", "is an empty folder" … */
  reason: string;
}

/** Thrown by the engine's add() when some paths cannot be sent; nothing was queued. */
export class PathsRefusedError extends Error {
  readonly code = 'paths_refused';
  constructor(readonly refused: RefusedPath[]) {
    super(
      refused.length === 1
        ? `${path.basename(refused[0]!.path) || refused[0]!.path} ${refused[0]!.reason}.`
        : `${refused.length} of the chosen files cannot be sent: ` +
            refused.map((r) => `${path.basename(r.path) || r.path} ${r.reason}`).join('; ') +
            '.',
    );
    this.name = 'PathsRefusedError';
  }
}

/** An operating system's error code, in words a person reads. */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'does not exist (a folder in its path is a file)';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied';
    case 'ELOOP':
      return 'cannot be read: its links go round in a circle';
    case 'ENAMETOOLONG':
      return 'cannot be read: its name is too long';
    case 'EIO':
      return 'cannot be read: the disk reported an error';
    case 'EBUSY':
      return 'cannot be read: another program holds it';
    default:
      return 'cannot be read';
  }
}

/** Every file under the given paths: files as they are, folders walked (hidden entries skipped). Throws. */
export async function expandPaths(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  async function walk(p: string): Promise<void> {
    const info = await stat(p);
    if (info.isFile()) {
      out.push(path.resolve(p));
    } else if (info.isDirectory()) {
      const entries = await readdir(p, { withFileTypes: true });
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        if (entry.isFile() || entry.isDirectory()) await walk(path.join(p, entry.name));
      }
    }
  }
  for (const p of paths) await walk(p);
  return [...new Set(out)];
}

/** Entries of a folder looked at together: a folder of a thousand files waited for each in turn (#34). */
const WALK_CONCURRENCY = 16;

interface Walked {
  files: FileIdentity[];
  refused: RefusedPath[];
}

/**
 * Each path checked and expanded: the files found (with their identity: size and modified time) and the
 * paths refused. A folder's unreadable file is refused by its own path, so the reason names it.
 */
export async function checkPaths(paths: string[]): Promise<Walked> {
  const files: FileIdentity[] = [];
  const refused: RefusedPath[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    const walked = await walk(p, true);
    for (const file of walked.files) {
      if (seen.has(file.path)) continue;
      seen.add(file.path);
      files.push(file);
    }
    refused.push(...walked.refused);
  }
  return { files, refused };
}

/** One path: a file's identity (from the same look that found it a file), or a folder's files in order. */
async function walk(p: string, top: boolean): Promise<Walked> {
  let info;
  try {
    info = await stat(p);
  } catch (error) {
    return { files: [], refused: [{ path: p, reason: fsReason(error) }] };
  }
  if (info.isFile()) {
    const resolved = path.resolve(p);
    try {
      await access(resolved, constants.R_OK);
    } catch (error) {
      return { files: [], refused: [{ path: resolved, reason: fsReason(error) }] };
    }
    return { files: [{ path: resolved, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) }], refused: [] };
  }
  if (!info.isDirectory()) {
    return { files: [], refused: top ? [{ path: p, reason: 'is not a file or a folder' }] : [] };
  }
  let entries;
  try {
    entries = await readdir(p, { withFileTypes: true });
  } catch (error) {
    return { files: [], refused: [{ path: p, reason: fsReason(error) }] };
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const wanted = entries.filter((e) => !e.name.startsWith('.') && (e.isFile() || e.isDirectory()));
  const walked = await inOrder(wanted, WALK_CONCURRENCY, (entry) => walk(path.join(p, entry.name), false));
  const files = walked.flatMap((w) => w.files);
  const refused = walked.flatMap((w) => w.refused);
  if (top && files.length === 0 && !refused.some((r) => r.path.startsWith(p)))
    refused.push({ path: p, reason: 'is an empty folder' });
  return { files, refused };
}
