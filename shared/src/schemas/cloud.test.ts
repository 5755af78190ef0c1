import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_INVALID,
  cloudImportRequestSchema,
  cloudImportTokenSchema,
  cloudPickResultSchema,
} from './cloud.js';

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

describe('cloud import request: an access token is something an HTTP header can carry', () => {
  const base = { provider: 'dropbox', fileId: 'id:1', name: 'clip.mp4' } as const;
  it.each([['sl.u.AbC-123_x.Y~z+/='], ['eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxIn0.c2ln']])(
    '%s is a token',
    (token) => {
      expect(cloudImportRequestSchema.safeParse({ ...base, accessToken: token }).success).toBe(true);
      expect(cloudImportTokenSchema.safeParse({ accessToken: token }).success).toBe(true);
    },
  );

  it.each([
    ['NUL', 'abc\u0000def'],
    ['CR/LF', 'abc\r\nX-Injected: 1'],
    ['a space', 'Bearer abc'],
    ['a lone surrogate', 'abc\ud800'],
    ['an emoji', 'abc🎬'],
    ['Latin-1', 'abcé'],
  ])('%s is refused with words', (_what, token) => {
    const request = cloudImportRequestSchema.safeParse({ ...base, accessToken: token });
    expect(request.success).toBe(false);
    expect(request.error?.issues[0]?.message).toBe(ACCESS_TOKEN_INVALID);
    expect(cloudImportTokenSchema.safeParse({ accessToken: token }).success).toBe(false);
  });
});

describe('cloud import request: a OneDrive file names its drive and item apart', () => {
  it('takes a personal item id with its "!" beside the drive id', () => {
    const parsed = cloudImportRequestSchema.parse({
      provider: 'onedrive',
      driveId: 'd4648f06c91d9d3d',
      fileId: 'D4648F06C91D9D3D!54927',
      name: 'a.mov',
    });
    expect(parsed).toMatchObject({ driveId: 'd4648f06c91d9d3d', fileId: 'D4648F06C91D9D3D!54927' });
  });

  it.each([
    [{ provider: 'box', driveId: 'd', fileId: '1', name: 'a' }],
    [{ provider: 'onedrive', driveId: 'd', link: 'https://graph.microsoft.com/x', name: 'a' }],
    [{ provider: 'onedrive', driveId: 'd/../x', fileId: '1', name: 'a' }],
  ])('refuses %j', (input) => {
    expect(cloudImportRequestSchema.safeParse(input).success).toBe(false);
  });
});
