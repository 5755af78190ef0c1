import { describe, expect, it } from 'vitest';
import { cloudPickResultSchema } from './cloud.js';

describe('SPEC §3 Cloud pick result: link and name (drive also id and metadata)', () => {
  it.each([
    [{ link: 'https://www.dropbox.com/s/abc/clip.mp4', name: 'clip.mp4' }, true],
    [
      {
        link: 'https://drive.google.com/file/d/1/view',
        name: 'clip.mp4',
        provider: 'google-drive',
        id: '1',
        metadata: { mimeType: 'video/mp4' },
      },
      true,
    ],
    [{ link: 'not a url', name: 'clip.mp4' }, false],
    [{ link: 'https://example.com/a', name: '' }, false],
    [{ link: 'https://example.com/a', name: 'a', provider: 'ftp' }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(cloudPickResultSchema.safeParse(input).success).toBe(ok);
  });
});
