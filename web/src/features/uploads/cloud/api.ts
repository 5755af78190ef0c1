import type { ClientImport, CloudConfigAnswer, UploadFileInfo } from '@avp/shared';
import { apiRequest } from '../../../lib/api';
import type { PickedCloudFile } from './pickers/types';

/** The cloud import calls (docs/api.md 'Cloud imports'). */

let config: Promise<CloudConfigAnswer> | null = null;

/** The pickers this server offers; asked once per page (a failure is asked again next time). */
export function cloudConfig(): Promise<CloudConfigAnswer> {
  config ??= apiRequest<CloudConfigAnswer>('GET', '/api/uploads/cloud-config').catch((error: unknown) => {
    config = null;
    throw error;
  });
  return config;
}

export async function startCloudImport(
  submissionId: string,
  picked: PickedCloudFile,
): Promise<UploadFileInfo> {
  const { file } = await apiRequest<{ file: UploadFileInfo }>(
    'POST',
    `/api/uploads/submissions/${encodeURIComponent(submissionId)}/imports`,
    picked,
  );
  return file;
}

export async function importedFile(fileId: string): Promise<UploadFileInfo> {
  const { file } = await apiRequest<{ file: UploadFileInfo }>(
    'GET',
    `/api/uploads/files/${encodeURIComponent(fileId)}`,
  );
  return file;
}

export async function recentImports(): Promise<ClientImport[]> {
  const { imports } = await apiRequest<{ imports: ClientImport[] }>('GET', '/api/uploads/imports');
  return imports;
}

export async function renewImport(fileId: string, picked: PickedCloudFile): Promise<UploadFileInfo> {
  const { file } = await apiRequest<{ file: UploadFileInfo }>(
    'POST',
    `/api/uploads/imports/${encodeURIComponent(fileId)}/token`,
    { accessToken: picked.accessToken ?? '', ...(picked.link ? { link: picked.link } : {}) },
  );
  return file;
}
