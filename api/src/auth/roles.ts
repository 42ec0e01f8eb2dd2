import type { Role } from '../db/schema';
import type { Permission, RoleName } from './permissions';

// The table of what each role may do lives in auth/permissions.ts (whoami sends it to the PWA).
export { roleAllows, type Permission } from './permissions';

/** The roles of the database and of the permission table are one set of names (a compile-time check). */
const _sameRoleNames: [Role] extends [RoleName] ? ([RoleName] extends [Role] ? true : never) : never = true;

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
