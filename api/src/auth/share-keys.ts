import type { Context } from 'hono';
import type { Db } from '../db/database';
import { badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../http/errors';
import { CLIENT_IP_HEADER, SHARE_KEY_HEADER, SHARE_KEY_QUERY } from '../http/client-address';
import { sharedRateLimiter } from './rate-limits';
import { windowStart } from './rate-limits.service';
import { countLiveShareKeys, hasMarkupBetween, liveShareKey, liveShareKeyCreator, sharedVideo } from './share-keys.service';
import type { AppEnv } from '../http/env';
import { parseId } from '../http/openapi';
import { parseInstant } from '../http/time';
import type { SharePermission } from './roles';

/**
 * Share keys (spec 01 §6: "a share key gives read-only access to the interactive report").
 *
 * A key is 192 random bits, written base64url (32 characters). The database keeps only its
 * SHA-256, so a copy of the database opens nothing. A request carries the key in the header
 * `x-norma-share-key` or in the query parameter `key` (a `<video src>` cannot set headers;
 * the names: http/client-address.ts).
 * A request that carries a key is judged by the key alone, on the permissions a key can carry
 * (roles.ts `sharePermissions`); every other call ignores the key and needs a signed-in user.
 */
const KEY_BYTES = 24;

export const INVALID_SHARE_KEY = 'Ссылка недействительна или отозвана';
export const OUTSIDE_SHARE_WINDOW = 'Эта ссылка открывает только свой интерактивный отчёт';

/**
 * What a key opens (share_keys.kind): the interactive report of its window, or the event analytics
 * figures of its hall and window (api/src/events/share.routes.ts). A key opens only its own kind.
 */
export type ShareKind = 'report' | 'event' | 'live_board';

/** The window a valid key opens. Instants are ms UTC. */
export interface ShareGrant {
  keyHash: string;
  kind: ShareKind;
  structureId: number;
  from: number;
  to: number;
  createdBy: string | null;
}

export function newShareKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(KEY_BYTES))).toString('base64url');
}

export function hashShareKey(key: string): string {
  return new Bun.CryptoHasher('sha256').update(key).digest('hex');
}

/** A key's text is base64url; anything else cannot be a key (and is not looked up). */
export function isWellFormedShareKey(key: string): boolean {
  return /^[A-Za-z0-9_-]{16,128}$/.test(key);
}

/** The key a request carries, if any: the header first, then `?key=`. */
export function shareKeyOf(c: Context<AppEnv>): string | null {
  const key = c.req.header(SHARE_KEY_HEADER) ?? c.req.query(SHARE_KEY_QUERY);
  return key === undefined || key === '' ? null : key;
}

/** The window of a live (not revoked) key, or null. */
export async function findShareGrant(db: Db, key: string): Promise<ShareGrant | null> {
  if (!isWellFormedShareKey(key)) return null;
  const row = await liveShareKey(db, hashShareKey(key));
  return row ? { keyHash: row.key, kind: row.kind, structureId: row.structure_id, from: row.from_time, to: row.to_time, createdBy: row.created_by } : null;
}

function queryInt(c: Context<AppEnv>, name: string): number {
  const raw = c.req.query(name);
  const value = parseId(raw);
  if (value === null) throw badRequest(`${name}: ожидается целое положительное число`);
  return value;
}

function queryInstant(c: Context<AppEnv>, name: string): number {
  const value = parseInstant(c.req.query(name) ?? '');
  if (value === null) throw badRequest(`${name}: ожидается дата-время ISO 8601 с часовым поясом`);
  return value;
}

/**
 * Is the video one that the key's report maps into its window (GET /api/v2/frv puts it in some
 * item's video_segments)? That is: a ready file with a known duration, of a camera of the key's
 * structure, overlapping a markup of the structure inside the window.
 */
async function videoInWindow(db: Db, grant: ShareGrant, videoId: number): Promise<boolean> {
  const video = await sharedVideo(db, videoId);
  if (!video || video.structure_id !== grant.structureId || video.status !== 'ready' || !video.duration || video.duration <= 0) return false;
  const from = Math.max(grant.from, video.start_time);
  const to = Math.min(grant.to, video.start_time + Math.round(video.duration * 1000));
  if (!(to > from)) return false;
  return hasMarkupBetween(db, grant.structureId, from, to);
}

/**
 * What each permission a key can carry means for one request: the request must stay inside the
 * key's window. The one place where a key is checked (called by requireAccess).
 */
const shareChecks: Record<SharePermission, (c: Context<AppEnv>, db: Db, grant: ShareGrant) => Promise<boolean>> = {
  /** GET /api/v2/frv: the key's structure, and a window inside the key's window. */
  'reports.window.read': async (c, _db, grant) => {
    const structureId = queryInt(c, 'structure_id');
    const from = queryInstant(c, 'from_time');
    const to = queryInstant(c, 'to_time');
    return structureId === grant.structureId && from >= grant.from && to <= grant.to && to > from;
  },
  /** GET /api/v1/video: a file the key's report maps into its window. */
  'video.play': async (c, db, grant) => videoInWindow(db, grant, queryInt(c, 'video_id')),
};

/** Unknown keys one address may try in a window before every lookup from it is refused (429). */
export const SHARE_KEY_MISSES_ALLOWED = 20;
export const SHARE_KEY_MISS_WINDOW_MS = 10 * 60 * 1000;
export const SHARE_KEY_GUESSING = 'Слишком много недействительных ссылок с этого адреса. Попробуйте позже.';

const missLimiters = new WeakMap<Db, ReturnType<typeof sharedRateLimiter>>();
/** Addresses over the limit, until when: kept in memory so that a blocked guesser costs no database write. */
const blockedUntil = new Map<string, number>();

/**
 * Looks a request's key up, limiting guessing per client address: each unknown key counts (in the
 * database, shared by every API process), and past SHARE_KEY_MISSES_ALLOWED in the window every
 * lookup from that address — right or wrong — is answered 429 with Retry-After. Valid keys cost nothing extra.
 * A live key of another kind than `kind` opens nothing here (null), without counting as a guess.
 */
export async function lookUpShareKey(c: Context<AppEnv>, db: Db, key: string, kind: ShareKind = 'report'): Promise<ShareGrant | null> {
  const address = c.req.header(CLIENT_IP_HEADER) ?? 'unknown';
  const until = blockedUntil.get(address);
  if (until !== undefined) {
    if (until > Date.now()) throw tooManyRequests(SHARE_KEY_GUESSING, (until - Date.now()) / 1000);
    blockedUntil.delete(address);
  }
  const grant = await findShareGrant(db, key);
  if (grant) return grant.kind === kind ? grant : null;
  let limiter = missLimiters.get(db);
  if (!limiter) {
    limiter = sharedRateLimiter(db, { scope: 'share_key_miss', max: SHARE_KEY_MISSES_ALLOWED, windowMs: SHARE_KEY_MISS_WINDOW_MS });
    missLimiters.set(db, limiter);
  }
  if (!(await limiter.take(address))) {
    blockedUntil.set(address, Date.now() + SHARE_KEY_MISS_WINDOW_MS);
    throw tooManyRequests(SHARE_KEY_GUESSING, SHARE_KEY_MISS_WINDOW_MS / 1000);
  }
  return null;
}

/** Creators of live keys already looked up, per database: key hash → user id, the oldest forgotten first. */
const creatorCaches = new WeakMap<Db, Map<string, string>>();
/** Enough for every live key of a large installation; past it the oldest entry is looked up again when next used. */
const KEY_CREATOR_CACHE_SIZE = 10_000;

const creatorCacheOf = (db: Db) => {
  let cache = creatorCaches.get(db);
  if (!cache) creatorCaches.set(db, (cache = new Map()));
  return cache;
};

/**
 * Who a share key's heavy requests count as (http/fair-share.ts): the id of the user who created a
 * live key, or null (unknown, revoked or malformed key, creator deleted, or an address blocked for
 * guessing) — then the request counts under its address. Only this identity is cached, by the key's
 * hash: a key's creator never changes. Whether a key opens anything is still decided on every request
 * by findShareGrant, uncached, so a revoked key stops working at once whatever this cache holds.
 */
export function shareKeyCreators(db: Db): (key: string, address: string) => Promise<string | null> {
  const cache = creatorCacheOf(db);
  return async (key, address) => {
    if (!isWellFormedShareKey(key) || (blockedUntil.get(address) ?? 0) > Date.now()) return null;
    const hash = hashShareKey(key);
    const known = cache.get(hash);
    if (known !== undefined) return known;
    const row = await liveShareKeyCreator(db, hash);
    if (!row?.created_by) return null;
    if (cache.size >= KEY_CREATOR_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(hash, row.created_by);
    return row.created_by;
  };
}

/** A revoked key counts under its address from now on (DELETE /api/v1/share/{key}). */
export function forgetShareKeyCreator(db: Db, key: string): void {
  creatorCaches.get(db)?.delete(hashShareKey(key));
}

/** What a user may create: `livePerUser` live keys at most and `perHour` new keys an hour (config.ts ShareKeyLimits). */
export interface ShareKeyQuota {
  livePerUser: number;
  perHour: number;
}

export const tooManyLiveShareKeys = (max: number) =>
  `У вас уже ${max} действующих ссылок «поделиться» — это предел. Отзовите ненужные ссылки и создайте новую.`;
export const SHARE_KEYS_TOO_OFTEN = 'Слишком много новых ссылок «поделиться» за час. Попробуйте позже.';
const SHARE_KEY_CREATION_WINDOW_MS = 60 * 60 * 1000;

/**
 * Lets a user create one more share key, or refuses with nothing written: 409 when they already
 * hold `livePerUser` live keys, 429 with Retry-After past `perHour` creations in the hour (counted
 * in the database, shared by every API process; an atomic counter, so keys sent at once cannot all
 * slip under it). The live count is read before the insert, so keys created at the same moment may
 * pass it together — by no more than the hourly limit.
 */
export async function admitNewShareKey(db: Db, userId: string, quota: ShareKeyQuota): Promise<void> {
  const live = await countLiveShareKeys(db, userId);
  if (live >= quota.livePerUser) throw conflict(tooManyLiveShareKeys(quota.livePerUser));
  const scope = 'share_key_create';
  if (await sharedRateLimiter(db, { scope, max: quota.perHour, windowMs: SHARE_KEY_CREATION_WINDOW_MS }).take(userId)) return;
  const window = await windowStart(db, scope, userId);
  const retryMs = window ? Number(window.window_start) + SHARE_KEY_CREATION_WINDOW_MS - Date.now() : SHARE_KEY_CREATION_WINDOW_MS;
  throw tooManyRequests(SHARE_KEYS_TOO_OFTEN, retryMs / 1000);
}

/**
 * Admits a request by its share key for one of the permissions a key can carry: 401 for an
 * unknown or revoked key, 403 for a request outside the key's window. On success the route sees
 * the key's structure as `structureId`; `user` stays null.
 */
export async function requireShareAccess(c: Context<AppEnv>, db: Db, key: string, permission: SharePermission): Promise<void> {
  const grant = await lookUpShareKey(c, db, key);
  if (!grant) throw unauthorized(INVALID_SHARE_KEY);
  if (!(await shareChecks[permission](c, db, grant))) throw forbidden(OUTSIDE_SHARE_WINDOW);
  c.set('structureId', grant.structureId);
}
