import { join } from 'node:path';
import type { Config } from '../config';
import { folderObjectStore, type ObjectStore } from './object-store';
import { s3ObjectStore } from './s3-object-store';

/** The configured object store: the bucket of NORMA_S3_BUCKET, else the folder DATA_DIR/objects. */
export function objectStoreFor(config: Pick<Config, 'dataDir' | 's3'>): ObjectStore {
  return config.s3 ? s3ObjectStore(config.s3) : folderObjectStore(join(config.dataDir, 'objects'));
}
