/** Shapes of the API replies the PWA reads (kept in step with api/src/<domain>/schema.ts). */
export type Role = 'admin' | 'analyst' | 'assessor' | 'viewer';

export interface CurrentUser {
  first_name: string;
  last_name: string;
  login: string;
  role: Role;
  organization: { id: number; name: string; time_zone: string };
}

export interface Message {
  message: string;
  first_name?: string;
  last_name?: string;
}

export interface Structure {
  id: number;
  name: string;
  parent_id: number | null;
}

export interface NamedItem {
  id: number;
  name: string;
}

export interface InstanceInfo {
  demo: boolean;
  version: string;
}
