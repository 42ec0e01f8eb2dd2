/* Length limits of sign-up fields: shared by the registration schema and the service, free of server imports so the PWA's contract typecheck can read them. */
export const LOGIN_MAX_LENGTH = 64;
export const NAME_MAX_LENGTH = 100;
export const PASSWORD_MAX_LENGTH = 128;
export const LOGIN_TOO_LONG = `Логин не длиннее ${LOGIN_MAX_LENGTH} символов`;
export const NAME_TOO_LONG = `Имя и фамилия — не длиннее ${NAME_MAX_LENGTH} символов`;
export const PASSWORD_TOO_LONG = `Пароль не длиннее ${PASSWORD_MAX_LENGTH} символов`;
