import type { Db } from '../db/database';

/**
 * Records a spent robot-check challenge (captcha.ts), dropping the expired ones on the way; false when
 * the challenge was spent already (the primary key decides, so of two requests exactly one gets true).
 */
export async function recordSpentChallenge(db: Db, challengeId: string, expiresAtMs: number): Promise<boolean> {
  await db.deleteFrom('captcha_used').where('expires_at', '<', Date.now()).execute();
  const inserted = await db
    .insertInto('captcha_used')
    .values({ challenge_id: challengeId, expires_at: expiresAtMs })
    .onConflict((oc) => oc.column('challenge_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 0;
}
