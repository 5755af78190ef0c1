/**
 * The API's cloud-import calls (docs/api.md 'Cloud imports') over the engine's transport: start one into
 * a submission with a fresh access token, read the caller's imports, hand a new token to one that waits.
 * The server copies the bytes from the provider; nothing here touches them.
 */
import { UploadError } from '@avp/shared';
import type {
  ClientImport,
  CloudImportInfo,
  CloudProvider,
  UploadFileInfo,
  UploadTransport,
} from '@avp/shared';

/** What the engine needs from the cloud accounts: a fresh access token per provider (CloudAccounts fits). */
export interface CloudTokenSource {
  accessToken(provider: CloudProvider, options?: { forceRefresh?: boolean }): Promise<string>;
}

function failure(status: number, body: unknown): UploadError {
  const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return new UploadError(
    status,
    error?.code ?? 'http_error',
    error?.message ?? `The server answered ${status}.`,
  );
}

/** One call, no retry of its own: 2xx → the body; otherwise UploadError (status 0: no answer, in words). */
export async function call<T>(
  transport: UploadTransport,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  json?: unknown,
): Promise<T> {
  let res;
  try {
    res = await transport({ method, path, json });
  } catch (error) {
    throw new UploadError(0, 'network', (error as Error).message);
  }
  if (res.status >= 200 && res.status < 300) return res.body as T;
  throw failure(res.status, res.body);
}

export interface ImportRequest {
  provider: CloudProvider;
  fileId: string;
  /** OneDrive: the drive `fileId` is in (docs/api.md 'OneDrive ids'). */
  driveId?: string;
  name: string;
  size?: number;
  mimeType?: string;
  accessToken: string;
}

/** Starts (or, for the same pick again, finds) the import of one file: the server's file with its import. */
export async function startImport(
  transport: UploadTransport,
  submissionId: string,
  request: ImportRequest,
): Promise<UploadFileInfo> {
  const body = await call<{ file: UploadFileInfo }>(
    transport,
    'POST',
    `/api/uploads/submissions/${encodeURIComponent(submissionId)}/imports`,
    request,
  );
  return body.file;
}

export async function listImports(transport: UploadTransport): Promise<ClientImport[]> {
  return (await call<{ imports: ClientImport[] }>(transport, 'GET', '/api/uploads/imports')).imports;
}

export async function importOf(transport: UploadTransport, fileId: string): Promise<UploadFileInfo> {
  return (
    await call<{ file: UploadFileInfo }>(transport, 'GET', `/api/uploads/files/${encodeURIComponent(fileId)}`)
  ).file;
}

export async function renewImport(
  transport: UploadTransport,
  fileId: string,
  accessToken: string,
): Promise<CloudImportInfo | undefined> {
  const body = await call<{ file: UploadFileInfo }>(
    transport,
    'POST',
    `/api/uploads/imports/${encodeURIComponent(fileId)}/token`,
    { accessToken },
  );
  return body.file.import;
}
