import type { Db } from '../db/database';
import type { Auth } from '../auth/auth';
import type { SessionUser } from '../auth/service';
import type { Config } from '../config';
import type { ObjectStore } from '../storage/object-store';
import type { MoveNetThread } from '../vision/movenet-threads';
import type { ReportThreads } from './report-threads';

/** What every domain's routes are built with. */
export interface AppDeps {
  db: Db;
  auth: Auth;
  config: Config;
  storage: ObjectStore;
  /** Threads for wide reports (http/report-threads.ts); without them reports are computed in place. */
  reportThreads?: ReportThreads;
  /** The thread that runs MoveNet for GET /api/v1/humans (vision/movenet-threads.ts); without it MoveNet runs in place. */
  movenetThread?: MoveNetThread;
}

export interface AppEnv {
  Variables: {
    user: SessionUser | null;
    /** Set by requireAccess when the route is structure-scoped. */
    structureId: number;
    /** The file of the video the access check read (auth/access.ts), so that a seek reads it once. */
    storedVideo: { id: number; storage_key: string; filename: string };
    /** A large document's prepared body (http/document-threads.ts, preparedDocument). */
    document: unknown;
  };
}
