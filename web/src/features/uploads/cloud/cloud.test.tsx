import type { CloudPickerConfig, UploadFileInfo } from '@avp/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { FilePicker } from '../FilePicker';
import { inboxStatus } from '../InboxPage';
import { providerUnreachableText } from './CloudButtons';
import type { PickedCloudFile } from './pickers';
import { loadAsset, ProviderUnreachable } from './pickers/load';

const google: CloudPickerConfig = { provider: 'google-drive', clientId: 'id', apiKey: 'key', scripts: [] };
const dropbox: CloudPickerConfig = { provider: 'dropbox', clientId: 'key', scripts: [] };

function Picker({ providers, picked }: { providers: CloudPickerConfig[]; picked: PickedCloudFile[] }) {
  const [files, setFiles] = useState<File[]>([]);
  const [cloud, setCloud] = useState(picked);
  return (
    <FilePicker
      files={files}
      onChange={setFiles}
      cloud={providers.length ? { providers, files: cloud, onChange: setCloud } : undefined}
    />
  );
}

describe('files from cloud accounts in the upload form', () => {
  it('shows one button per configured provider beside Choose files, and none without', () => {
    const { unmount } = render(<Picker providers={[google, dropbox]} picked={[]} />);
    expect(screen.getByRole('button', { name: 'Add files from Google Drive' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add files from Dropbox' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add files from Box' })).toBeNull();
    unmount();
    render(<Picker providers={[]} picked={[]} />);
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Add files from a cloud account' })).toBeNull();
  });

  it('lists picked files with local ones: name cut at 24 characters, size, provider, remove', async () => {
    const picked: PickedCloudFile[] = [
      { provider: 'google-drive', fileId: 'a', name: 'Sponsor reel final final v3.mov', size: 1024 ** 3 },
      { provider: 'dropbox', link: 'https://dl.dropboxusercontent.com/x', name: 'loop.mp4' },
    ];
    render(<Picker providers={[google, dropbox]} picked={picked} />);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toContain('Sponsor reel final final…');
    expect(first!.textContent).toContain('1 GB');
    expect(first!.textContent).toContain('Google Drive');
    expect(second!.textContent).toContain('Dropbox');
    await userEvent.click(within(list).getByRole('button', { name: 'Remove loop.mp4' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('imported files in the staff inbox', () => {
  const file = (size: number, info?: UploadFileInfo['import']): UploadFileInfo => ({
    id: 'f',
    name: 'a.mov',
    size,
    type: '',
    lastModified: null,
    sha256: null,
    partSize: 6,
    partCount: 1,
    status: info?.status === 'complete' ? 'complete' : 'uploading',
    ...(info ? { import: info } : {}),
  });
  const info = (
    status: NonNullable<UploadFileInfo['import']>['status'],
    bytesDone = 0,
    error: string | null = null,
  ) => ({
    provider: 'box' as const,
    status,
    bytesDone,
    bytesPerSecond: null,
    error,
    updatedAt: '2026-11-24T00:00:00.000Z',
  });

  it.each([
    [file(100), 'Uploading'],
    [file(100, info('running', 45)), 'Copying from Box (45%)'],
    [file(100, info('complete', 100)), 'Complete (from Box)'],
    [file(100, info('needs_auth', 10)), 'Waiting for the client to sign in to Box again'],
    [file(100, info('failed', 10, 'Gone.')), 'Import from Box failed: Gone.'],
  ])('%# says %j', (f, text) => {
    expect(inboxStatus(f)).toBe(text);
  });
});

describe("a provider's scripts", () => {
  it('count as unreachable when they neither load nor fail in time, and are asked for again next time', async () => {
    const url = 'https://provider.example/stalled.js';
    // jsdom fetches no scripts: this one stays silent, as a stalled connection would.
    await expect(loadAsset(url, {}, 5)).rejects.toBeInstanceOf(ProviderUnreachable);
    expect(document.head.querySelector(`script[src="${url}"]`)).toBeNull();
    const again = loadAsset(url, {}, 5);
    expect(document.head.querySelectorAll(`script[src="${url}"]`)).toHaveLength(1);
    await expect(again).rejects.toThrow(`Could not load ${url}`);
  });

  it('load once, whoever asks', async () => {
    const url = 'https://provider.example/picker.css';
    const first = loadAsset(url);
    expect(loadAsset(url)).toBe(first);
    const link = document.head.querySelector<HTMLLinkElement>(`link[href="${url}"]`)!;
    expect(link.rel).toBe('stylesheet');
    link.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
  });

  it('that fail to load say which provider could not be reached', () => {
    expect(providerUnreachableText('google-drive')).toBe(
      'Google Drive could not be reached. Check your connection, then try again.',
    );
  });
});
