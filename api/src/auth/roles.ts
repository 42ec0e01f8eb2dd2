import type { Role } from '../db/schema';

/**
 * What each role may do. Every structure-scoped route names one permission; the single access
 * middleware (auth/access.ts) checks it together with the structure's organisation.
 */
export const permissions = {
  /** See the workspace tree, structures, employees, tasks. */
  'workspace.read': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Read reports and share them. */
  'reports.read': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Label video: markups, stamps, finishing tasks. */
  'markup.write': ['admin', 'analyst', 'assessor'],
  /** Configure structures, operations, shifts, models, locations. */
  'workspace.write': ['admin', 'analyst'],
  /** Users, roles, calculator defaults. */
  'organization.admin': ['admin'],
  /** Read the interactive report (GET /api/v2/frv) of a window. A share key carries it too. */
  'reports.window.read': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Play a video file (GET /api/v1/video). A share key carries it too. */
  'video.play': ['admin', 'analyst', 'assessor', 'viewer'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

/**
 * The permissions a share key can carry — the second kind of principal beside a signed-in user
 * (spec 01 §6: "a share key gives read-only access to the interactive report"). A key carries
 * them only inside its own window; what that means for each is written in auth/share-keys.ts.
 * Every other permission needs a signed-in user, key or no key.
 */
export const sharePermissions = ['reports.window.read', 'video.play'] as const satisfies readonly Permission[];

export type SharePermission = (typeof sharePermissions)[number];

export function isSharePermission(permission: Permission): permission is SharePermission {
  return (sharePermissions as readonly Permission[]).includes(permission);
}

export const roleLabels: Record<Role, string> = {
  admin: 'Администратор',
  analyst: 'Аналитик',
  assessor: 'Разметчик',
  viewer: 'Наблюдатель',
};

export function roleAllows(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
