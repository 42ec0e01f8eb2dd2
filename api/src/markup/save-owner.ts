import type { MiddlewareHandler } from 'hono';
import { currentUser } from '../auth/access';
import { ApiError, badRequest } from '../http/errors';
import type { AppEnv } from '../http/env';

/**
 * A save queued on a device without a network names the user who made it (their login,
 * URI-encoded: a login may be Cyrillic, a header is Latin-1). The PWA sends it only in that user's
 * session; this check closes the last gap — a sign-in by someone else on the same device between
 * the PWA's check and the send (docs/markup.md, «Чьё сохранение»). Without the header nothing changes.
 */
export const SAVE_OWNER_HEADER = 'x-norma-save-owner';
export const SAVE_OWNER_MISMATCH_CODE = 'save_owner_mismatch';
export const SAVE_OWNER_MISMATCH_MESSAGE = 'Это сохранение сделано на устройстве другим пользователем: оно будет отправлено, когда он войдёт.';
const MAX_HEADER_LENGTH = 1000;

/** Runs after the access check: refuses (403, nothing saved) a save whose owner is not the session's user. */
export const saveOwnerMatches: MiddlewareHandler<AppEnv> = async (c, next) => {
  const raw = c.req.header(SAVE_OWNER_HEADER);
  if (raw !== undefined) {
    let owner: string;
    try {
      if (raw.length > MAX_HEADER_LENGTH) throw new Error('too long');
      owner = decodeURIComponent(raw);
    } catch {
      throw badRequest(`Заголовок ${SAVE_OWNER_HEADER}: ожидается логин в кодировке URI, не длиннее ${MAX_HEADER_LENGTH} символов`);
    }
    if (owner !== currentUser(c).login) throw new ApiError(403, SAVE_OWNER_MISMATCH_CODE, SAVE_OWNER_MISMATCH_MESSAGE);
  }
  await next();
};
