import type { Auth } from './auth/auth';
import type { Config } from './config';
import type { Db } from './db/database';
import type { ObjectStore } from './storage/object-store';
import type { MoveNetThread } from './threads/movenet-threads';
import type { ReportThreads } from './threads/report-threads';

/** What every domain's routes are built with. */
export interface AppDeps {
  db: Db;
  auth: Auth;
  config: Config;
  storage: ObjectStore;
  /** Threads for wide reports (threads/report-threads.ts); without them reports are computed in place. */
  reportThreads?: ReportThreads;
  /** The threads that run MoveNet for GET /api/v1/humans (threads/movenet-threads.ts); without them MoveNet runs in place. */
  movenetThread?: MoveNetThread;
}
