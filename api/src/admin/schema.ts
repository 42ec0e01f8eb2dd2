import { z } from '@hono/zod-openapi';
import { LOGIN_MAX_LENGTH, LOGIN_TOO_LONG, NAME_MAX_LENGTH, NAME_TOO_LONG } from '../auth/limits';
import { PRODUCTION_TYPES } from '../org/schema';

export const ROLES = ['admin', 'analyst', 'assessor', 'viewer'] as const;

const roleField = z.enum(ROLES, { error: 'role: admin, analyst, assessor или viewer' });
const nameField = (field: string, max = 200) =>
  z
    .string({ error: `${field}: ожидается строка` })
    .trim()
    .min(1, { error: `${field}: не может быть пустым` })
    .max(max, { error: `${field}: не длиннее ${max} символов` });

export const UserIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const AdminUser = z
  .object({ id: z.string(), login: z.string(), first_name: z.string(), last_name: z.string(), role: z.enum(ROLES), is_self: z.boolean() })
  .openapi('AdminUser');

export const AdminUsersReply = z
  .object({ users: z.array(AdminUser), roles: z.record(z.string(), z.string()).openapi({ description: 'код роли → название' }) })
  .openapi('AdminUsers');

export const UserCreate = z
  .object({
    login: z.string({ error: 'login: ожидается строка' }).max(LOGIN_MAX_LENGTH, LOGIN_TOO_LONG),
    first_name: z.string({ error: 'first_name: ожидается строка' }).max(NAME_MAX_LENGTH, NAME_TOO_LONG),
    last_name: z.string({ error: 'last_name: ожидается строка' }).max(NAME_MAX_LENGTH, NAME_TOO_LONG),
    password: z.string({ error: 'password: ожидается строка' }).max(128),
    role: roleField,
  })
  .openapi('UserCreate');

export const UserRoleChange = z.object({ role: roleField }).openapi('UserRoleChange');

export const AdminStructure = z
  .object({
    id: z.number(),
    name: z.string(),
    parent_id: z.number().nullable(),
    partial: z.boolean(),
    production_type: z.enum(PRODUCTION_TYPES),
    children: z.number(),
    employees: z.number(),
    workplaces: z.number(),
    cameras: z.number(),
    markups: z.number(),
  })
  .openapi('AdminStructure');

export const StructureCreate = z
  .object({
    name: nameField('name'),
    parent_id: z.number({ error: 'parent_id: ожидается id структурной единицы или null' }).int().positive().nullable().default(null),
  })
  .openapi('StructureCreate');

export const StructureChange = z
  .object({
    name: nameField('name').optional(),
    parent_id: z.number({ error: 'parent_id: ожидается id структурной единицы или null' }).int().positive().nullable().optional(),
  })
  .openapi('StructureChange');

export const NamedCreate = z
  .object({ structure_id: z.number({ error: 'structure_id: ожидается целое положительное число' }).int().positive(), name: nameField('name') })
  .openapi('NamedCreate');

export const NamedChange = z.object({ name: nameField('name') }).openapi('NamedChange');

/** A folder key of the object store: "recordings/участок-1/cam1" — letters, digits, _ . - and /, no "..". */
const storageFolder = z
  .string({ error: 'storage_folder: ожидается строка' })
  .trim()
  .min(1, { error: 'storage_folder: укажите папку хранилища' })
  .max(200)
  .transform((value) => value.replace(/^\/+|\/+$/g, ''))
  .refine((value) => value.split('/').every((part) => /^[\p{L}\p{N}_.-]+$/u.test(part) && part !== '.' && part !== '..'), {
    message: 'storage_folder: папка внутри хранилища — части из букв, цифр и _ . -, разделённые /, без «..»',
  });

const cameraKey = z
  .number({ error: 'camera_key: ожидается номер камеры 1–4' })
  .int({ error: 'camera_key: ожидается номер камеры 1–4' })
  .min(1, { error: 'camera_key: номер камеры от 1 до 4' })
  .max(4, { error: 'camera_key: номер камеры от 1 до 4' });

export const AdminCamera = z
  .object({ id: z.number(), structure_id: z.number(), camera_key: z.number(), name: z.string(), storage_folder: z.string(), videos: z.number() })
  .openapi('AdminCamera');

export const CameraCreate = z
  .object({
    structure_id: z.number({ error: 'structure_id: ожидается целое положительное число' }).int().positive(),
    camera_key: cameraKey,
    name: nameField('name'),
    storage_folder: storageFolder,
  })
  .openapi('CameraCreate');

export const CameraChange = z
  .object({ camera_key: cameraKey.optional(), name: nameField('name').optional(), storage_folder: storageFolder.optional() })
  .openapi('CameraChange');

export const Message = z.object({ message: z.string() }).openapi('AdminMessage');
