import type { Role } from '../db/schema';

/**
 * The request context every route and middleware is typed with (Hono's env): the signed-in user and
 * what the access check and the document thread leave for the route. What routes are built with is
 * AppDeps (api/src/deps.ts).
 */

/** The signed-in user as every request carries it (auth/service.ts sessionUser reads it from the session). */
export interface SessionUser {
  id: string;
  login: string;
  firstName: string;
  lastName: string;
  role: Role;
  organizationId: number;
  organizationName: string;
  timeZone: string;
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
