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
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export const roleLabels: Record<Role, string> = {
  admin: 'Администратор',
  analyst: 'Аналитик',
  assessor: 'Разметчик',
  viewer: 'Наблюдатель',
};

export function roleAllows(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
