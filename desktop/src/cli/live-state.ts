/**
 * What a running av-upload last knew of the server, for `av-upload status` in another terminal: the
 * sending process writes its connection state to AV_UPLOAD_HOME/connection.json on every change, and
 * leaves its last word there when it ends (a run that gave up on an unreachable server says so until the
 * next run). The process id tells status whether anyone is still trying.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConnectionState } from '../engine/engine.js';

export interface LiveState {
  pid: number;
  /** The command that wrote it (upload, resume, watch). */
  command: string;
  connection: ConnectionState;
  /** Epoch ms of the write. */
  at: number;
  /** Set when the process ended. */
  ended?: boolean;
}

const liveFile = (home: string) => path.join(home, 'connection.json');

export function writeLiveState(home: string, state: Omit<LiveState, 'pid' | 'at'>): void {
  const file = liveFile(home);
  try {
    // Written whole and renamed, so status never reads half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ ...state, pid: process.pid, at: Date.now() }), {
      mode: 0o600,
    });
    renameSync(`${file}.tmp`, file);
  } catch {
    // Only a status hint: a home that cannot be written fails the queue's own save, which says so.
  }
}

export function readLiveState(home: string): (LiveState & { running: boolean }) | null {
  let state: LiveState;
  try {
    state = JSON.parse(readFileSync(liveFile(home), 'utf8')) as LiveState;
  } catch {
    return null;
  }
  return { ...state, running: !state.ended && alive(state.pid) };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
