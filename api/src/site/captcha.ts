import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { SiteConfig } from '../config';
import type { Db } from '../db/database';
import { ApiError } from '../http/errors';
import { PROMPTS } from './schema';
import { recordSpentChallenge } from './captcha.service';

/**
 * The robot check: ALTCHA proof of work, issued and verified here — no outside service, so it
 * works on a closed network (docs/site.md). Each derivation is PBKDF2/SHA-256 of ALTCHA_COST rounds
 * (about 0.1 ms in a browser's Web Crypto); the browser tries counters from 0 up to the drawn one.
 */
export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';
export const ALTCHA_COST = 500;

const refused = (message: string) => new ApiError(400, 'captcha_failed', message);

export interface Captcha {
  challenge(): Promise<Challenge>;
  /** Verifies a widget payload and spends its challenge (a second use is refused); throws a 400 otherwise. */
  spend(db: Db, payload: string): Promise<void>;
}

/**
 * The challenges' HMAC key, derived from the installation's session secret (NORMA_AUTH_SECRET or
 * DATA_DIR/auth-secret): every API process of an installation verifies what any of them issued, and
 * the session secret itself is never used as is.
 */
export function captchaKey(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('norma-altcha-v1').digest('hex');
}

export function createCaptcha(config: SiteConfig, secret: string): Captcha {
  const max = Math.max(2, Math.floor(config.altchaMaxNumber));
  return {
    challenge: () =>
      createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost: ALTCHA_COST,
        counter: randomInt(max, Math.ceil(max / 2)),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + config.altchaExpireSeconds,
        hmacSignatureSecret: secret,
      }),

    async spend(db, raw) {
      const payload = parsePayload(raw);
      if (!payload) throw refused(PROMPTS.robot);
      const { challenge, solution } = payload;
      // Our own challenges always expire; one without an expiry was not made here.
      const expiresAt = challenge.parameters.expiresAt;
      if (typeof expiresAt !== 'number') throw refused('Проверка «не робот» не пройдена. Пройдите её ещё раз.');
      let result;
      try {
        result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: secret });
      } catch {
        throw refused('Проверка «не робот» не пройдена. Пройдите её ещё раз.');
      }
      if (result.expired) throw refused('Проверка «не робот» устарела. Пройдите её ещё раз.');
      if (!result.verified) throw refused('Проверка «не робот» не пройдена. Пройдите её ещё раз.');
      await markSpent(db, challenge.parameters.nonce, expiresAt * 1000);
    },
  };
}

function parsePayload(raw: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as Partial<Payload> | null;
    const parameters = value?.challenge?.parameters;
    const solution = value?.solution;
    if (!parameters || typeof parameters.nonce !== 'string' || !/^[0-9a-f]{8,128}$/.test(parameters.nonce)) return null;
    if (!solution || typeof solution.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
    return value as Payload;
  } catch {
    return null;
  }
}

/**
 * Records a spent challenge by its nonce (random, covered by the signature). The primary key makes
 * the check and the record one step: of two requests with one solution, exactly one gets through.
 * Rows whose challenge has expired are dropped on the way — an expired challenge is refused anyway.
 */
async function markSpent(db: Db, challengeId: string, expiresAtMs: number): Promise<void> {
  if (!(await recordSpentChallenge(db, challengeId, expiresAtMs))) throw refused('Эта проверка «не робот» уже использована. Пройдите её ещё раз.');
}
