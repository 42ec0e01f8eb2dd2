/**
 * What each role may do: the one table of the API's access rules. Every structure-scoped route
 * names one permission; the single access middleware (auth/access.ts) checks it. The PWA does not
 * copy this table: `GET /api/v1/whoami` sends the permissions of the signed-in user's role (read
 * from here), and each screen shows an action only when that list names the action's permission.
 *
 * No imports: auth/schema.ts (reachable from contract.ts, typechecked with the PWA) reads it.
 */
export const roleNames = ['admin', 'analyst', 'assessor', 'viewer'] as const;

export type RoleName = (typeof roleNames)[number];

export const permissions = {
  /** See the workspace tree, structures, employees, tasks. */
  'workspace.read': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Read reports and share them. */
  'reports.read': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Label video: markups, stamps, finishing tasks, uploading and syncing recordings. */
  'markup.write': ['admin', 'analyst', 'assessor'],
  /** Configure structures, operations, shifts, models, locations, the map; delete tasks. */
  'workspace.write': ['admin', 'analyst'],
  /** Users, roles, calculator defaults, norm approvers; the organisation's name and time zone. */
  'organization.admin': ['admin'],
  /** Read the interactive report (GET /api/v2/frv) of a window. A share key carries it too. */
  'reports.window.read': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Play a video file (GET /api/v1/video). A share key carries it too. */
  'video.play': ['admin', 'analyst', 'assessor', 'viewer'],
  /** Read and mark the public site's contact requests. Only inside the owner organisation (ownerOnlyPermissions). */
  'site.requests': ['admin'],
} as const satisfies Record<string, readonly RoleName[]>;

export type Permission = keyof typeof permissions;

export const permissionNames = Object.keys(permissions) as [Permission, ...Permission[]];

/**
 * Permissions a role holds only inside the installation's owner organisation (its first one): the
 * public site's requests belong to the installation, not to a customer who registered on it.
 */
export const ownerOnlyPermissions: readonly Permission[] = ['site.requests'];

/** Does the role grant the permission; `inOwnerOrganization` — is the user a member of the owner organisation. */
export function roleAllows(role: RoleName, permission: Permission, inOwnerOrganization = false): boolean {
  if (ownerOnlyPermissions.includes(permission) && !inOwnerOrganization) return false;
  return (permissions[permission] as readonly RoleName[]).includes(role);
}

/** The permissions of a role, in the table's order (what whoami sends). */
export function permissionsOf(role: RoleName, inOwnerOrganization = false): Permission[] {
  return permissionNames.filter((permission) => roleAllows(role, permission, inOwnerOrganization));
}
