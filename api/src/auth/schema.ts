import { z } from '@hono/zod-openapi';
import { LOGIN_MAX_LENGTH, LOGIN_TOO_LONG, NAME_MAX_LENGTH, NAME_TOO_LONG, PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG } from './limits';
import { permissionNames, roleNames } from './permissions';

export const LoginQuery = z.object({
  email: z.string().max(LOGIN_MAX_LENGTH, LOGIN_TOO_LONG).openapi({ description: 'Логин (или email) пользователя' }),
  password: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG),
});

export const LoginBody = z.object({
  login: z.string().max(LOGIN_MAX_LENGTH, LOGIN_TOO_LONG),
  password: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG),
});

export const RegistrationSchema = z
  .object({
    login: z.string().max(LOGIN_MAX_LENGTH, LOGIN_TOO_LONG).default(''),
    password: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG).default(''),
    first_name: z.string().max(NAME_MAX_LENGTH, NAME_TOO_LONG).default(''),
    last_name: z.string().max(NAME_MAX_LENGTH, NAME_TOO_LONG).default(''),
  })
  .openapi('Registration');

export const WhoAmI = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    login: z.string(),
    role: z.enum(roleNames),
    /** What this role may do (auth/permissions.ts): the PWA shows an action only when its permission is here. */
    permissions: z.array(z.enum(permissionNames)),
    organization: z.object({
      id: z.number(),
      name: z.string(),
      time_zone: z.string().openapi({ example: 'Europe/Moscow' }),
      /** The demo organisation: the PWA shows the «демо-данные» badge to its users only. */
      is_demo: z.boolean(),
    }),
  })
  .openapi('CurrentUser');

export const MessageReply = z.object({ message: z.string(), first_name: z.string().optional(), last_name: z.string().optional() }).openapi('Message');

export const InstanceQuery = z.object({
  key: z
    .string()
    .max(128, { error: 'ключ ссылки не длиннее 128 символов' })
    .optional()
    .openapi({ description: 'ключ ссылки на отчёт: demo — о его организации' }),
});

export const InstanceInfo = z
  .object({
    demo: z.boolean(),
    version: z.string(),
    /** Outside sites set by NORMA_LINK_* (api/src/config.ts); a site not set is absent, and its link is not shown. */
    links: z.object({
      tracker: z.string().optional(),
      formwork: z.string().optional(),
      district: z.string().optional(),
      elibrary: z.string().optional(),
      scholar: z.string().optional(),
    }),
  })
  .openapi('Instance');
