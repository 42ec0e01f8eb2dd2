import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { LOCKOUT, signInLockout } from './lockout';
import { registerUser } from './service';

/** Issue 24: guessing a login's password locks the guesser's address for that login, never the owner elsewhere. */
let t: TestApp;
beforeAll(async () => {
  // A per-address limit high enough that the lockout, not the flood limit, is what answers here.
  t = await createTestApp({ signInPerMinute: 100 });
  await registerUser(t.deps, { login: 'owner', password: 'right-password', firstName: 'Ольга', lastName: 'Хозяйка' });
  await registerUser(t.deps, { login: 'neighbour', password: 'right-password', firstName: 'Нина', lastName: 'Соседка' });
});
afterAll(async () => t.cleanup());

const signIn = (login: string, password: string, ip: string) => t.request('/api/v1/login', { method: 'POST', ip, body: JSON.stringify({ login, password }) });

describe('sign-in lockout', () => {
  it('locks per login and address with a doubling delay, and a success clears it', async () => {
    let clock = 5_000_000;
    const lockout = signInLockout(t.deps.db, () => clock);
    const delays = [];
    for (let i = 0; i < LOCKOUT.freeFailures; i++) delays.push(await lockout.failed('Someone', '10.9.9.9'));
    expect(delays).toEqual([0, 0, 0, 0, LOCKOUT.firstDelayMs]);
    expect(await lockout.lockedFor('someone', '10.9.9.9')).toBe(LOCKOUT.firstDelayMs);
    // The same login from another address, and another login from this one, are free.
    expect(await lockout.lockedFor('someone', '10.9.9.8')).toBe(0);
    expect(await lockout.lockedFor('other', '10.9.9.9')).toBe(0);
    clock += LOCKOUT.firstDelayMs;
    expect(await lockout.lockedFor('someone', '10.9.9.9')).toBe(0);
    expect(await lockout.failed('someone', '10.9.9.9')).toBe(2 * LOCKOUT.firstDelayMs);
    clock += 2 * LOCKOUT.firstDelayMs;
    expect(await lockout.failed('someone', '10.9.9.9')).toBe(4 * LOCKOUT.firstDelayMs);
    await lockout.succeeded('someone', '10.9.9.9');
    expect(await lockout.lockedFor('someone', '10.9.9.9')).toBe(0);
    expect(await lockout.failed('someone', '10.9.9.9')).toBe(0);
  });

  it('the owner signs in with the right password from another address while an attacker keeps guessing', async () => {
    const attacker = '203.0.113.7';
    const owner = '198.51.100.20';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await signIn('owner', `guess-${i}-password`, attacker)).status);
      // Between the guesses, the owner signs in from home.
      if (i % 4 === 3) expect((await signIn('owner', 'right-password', owner)).status).toBe(200);
    }
    expect(statuses).toEqual([401, 401, 401, 401, ...Array(8).fill(429)]);
    // The attacker's address is locked for this login, the right password included, with a delay to wait.
    const refused = await signIn('owner', 'right-password', attacker);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error.message).toMatch(/^Слишком много неверных паролей.*Повторите через \d+ (с|мин)\.$/);
    // The owner still gets in (login in any case), and another login from the attacker's address is not locked.
    expect((await signIn('OWNER', 'right-password', owner)).status).toBe(200);
    expect((await signIn('neighbour', 'right-password', attacker)).status).toBe(200);
  });
});
