import path from 'node:path';
import { Turns } from '@avp/shared';

/**
 * Files created one at a time in each folder. Creating a file takes its folder's lock in the kernel for
 * as long as the file system looks for a free inode; the pool's other threads asking to create in the
 * same folder meanwhile spin on that lock rather than sleep (perf, bench:many's 1,000 files of 1 MiB on
 * ext4: 0.39 s of the server's processor time in `rwsem_spin_on_owner` under `openat`, a tenth of it all,
 * on two cores shared with the client). Waiting here costs no speed: the kernel lets one create at a time
 * through anyway. Folders of their own (other submissions) still create at once.
 */
export class FolderCreates {
  private readonly folders = new Map<string, { turns: Turns; users: number }>();

  /** Runs `create` (which makes the file at `file`) once no other create in its folder is under way. */
  async run<T>(file: string, create: () => Promise<T>): Promise<T> {
    const folder = path.dirname(file);
    let entry = this.folders.get(folder);
    if (!entry) {
      entry = { turns: new Turns(1, 'FolderCreates'), users: 0 };
      this.folders.set(folder, entry);
    }
    entry.users++;
    try {
      return await entry.turns.run(create);
    } finally {
      if (--entry.users === 0) this.folders.delete(folder);
    }
  }

  /** Folders with a create under way or waiting (tests). */
  get busyFolders(): number {
    return this.folders.size;
  }
}
