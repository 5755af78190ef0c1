import { createRequire } from 'node:module';
import { tempDir } from './env.js';

/**
 * A local S3-compatible server standing in for S3 at the network boundary: s3rver (the npm package),
 * on a free port with a throwaway directory and one bucket. The SDK's credentials are its fixed pair.
 */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export const S3_STAND_IN_BUCKET = 'avp-uploads';

/** The server's settings for S3 storage at `endpoint` (the stand-in, or a proxy in front of it). */
export function s3StandInEnv(endpoint: string): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_BUCKET: S3_STAND_IN_BUCKET,
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_REGION: 'us-east-1',
  };
}

export async function startS3StandIn(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const dir = await tempDir('avp-s3-');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir.dir,
    configureBuckets: [{ name: S3_STAND_IN_BUCKET }],
  });
  const { port } = await server.run();
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      await dir.remove();
    },
  };
}
