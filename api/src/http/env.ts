import type { Db } from '../db/database';
import type { Auth } from '../auth/auth';
import type { SessionUser } from '../auth/service';
import type { Config } from '../config';
import type { ObjectStore } from '../storage/object-store';

/** What every domain's routes are built with. */
export interface AppDeps {
  db: Db;
  auth: Auth;
  config: Config;
  storage: ObjectStore;
}

export interface AppEnv {
  Variables: {
    user: SessionUser | null;
    /** Set by requireAccess when the route is structure-scoped. */
    structureId: number;
  };
}
