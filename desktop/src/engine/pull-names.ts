/**
 * Folder and file names for the show pull that every desktop system accepts: no characters Windows
 * refuses (<>:"/\|?* and controls), no reserved device names (CON, NUL, COM1…), no trailing dot or space,
 * at most 150 UTF-8 bytes, and unique where case is ignored (Windows and macOS folders fold case).
 */

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const MAX_BYTES = 150;

export function safeName(raw: string): string {
  let name = raw
    .normalize('NFC')
    // Control characters are exactly what Windows refuses in a name.
    // eslint-disable-next-line no-control-regex
    .replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_')
    .replace(/[. ]+$/, '')
    .trim();
  if (name === '' || name === '.' || name === '..') name = '_';
  if (RESERVED.test(name)) name = `_${name}`;
  while (Buffer.byteLength(name) > MAX_BYTES) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    const stem = name.slice(0, name.length - ext.length);
    name = [...stem].slice(0, -1).join('') + ext;
  }
  return name;
}

/** Hands out names unique in one folder, case ignored: "spot.mov", then "spot (2).mov". */
export class UniqueNames {
  private readonly taken = new Set<string>();

  claim(folder: string, name: string): string {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
      const key = `${folder.toLowerCase()}/${candidate.toLowerCase()}`;
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return candidate;
      }
    }
  }

  /** A name decided in an earlier run keeps its place. */
  reserve(folder: string, name: string): void {
    this.taken.add(`${folder.toLowerCase()}/${name.toLowerCase()}`);
  }
}
