import { createServer, type Server } from 'node:net';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { configFromEnv, type SiteConfig } from '../config';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { normalizeRussianPhone } from './schema';
import { untilState } from '../../../tests/support/wait';

/** A cheap robot check: a few dozen derivations instead of thousands. */
const site = (changes: Partial<SiteConfig> = {}): SiteConfig => ({ ...configFromEnv({}).site, altchaMaxNumber: 30, ...changes });
const password = 'long-password';

let t: TestApp;
let ownerAdmin: string;
let ownerViewer: string;
let otherAdmin: string;

beforeAll(async () => {
  t = await createTestApp({ site: site({ feedbackPerHour: 3 }) });
  const owner = await registerUser(t.deps, { login: 'owner', password, firstName: 'Анна', lastName: 'Владелец' });
  await registerUser(t.deps, { login: 'viewer', password, firstName: 'Вера', lastName: 'Зритель' }, { organizationId: owner.organizationId, role: 'viewer' });
  await registerUser(t.deps, { login: 'stranger', password, firstName: 'Семён', lastName: 'Чужой' });
  ownerAdmin = await t.signIn('owner', password);
  ownerViewer = await t.signIn('viewer', password);
  otherAdmin = await t.signIn('stranger', password);
});
afterAll(async () => t.cleanup());

/** What the altcha widget does in the browser: fetch a challenge, solve it, encode the payload. */
async function solved(app: TestApp = t): Promise<string> {
  const response = await app.request('/api/v3/captcha/challenge');
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const send = async (body: Record<string, unknown>, options: { ip?: string; app?: TestApp } = {}) => {
  const response = await (options.app ?? t).request('/api/v3/feedback', { method: 'POST', body: JSON.stringify(body), ip: options.ip });
  return { status: response.status, body: (await response.json()) as { message?: string; id?: number; error?: { code: string; message: string } } };
};
const rows = (app: TestApp = t) => app.deps.db.selectFrom('feedback').selectAll().orderBy('id').execute();
let ip = 0;
/** Each case its own address, so the per-address limit counts only what a case means it to. */
const nextIp = () => `192.0.2.${++ip}`;

describe('robot check and the contact form (POST /api/v3/feedback)', () => {
  it('a challenge carries an expiry about NORMA_ALTCHA_EXPIRE_SECONDS ahead and a signature', async () => {
    const challenge = (await (await t.request('/api/v3/captcha/challenge')).json()) as Challenge;
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(challenge.parameters.expiresAt! - Date.now() / 1000).toBeGreaterThan(590);
    expect(challenge.parameters.expiresAt! - Date.now() / 1000).toBeLessThanOrEqual(600);
  });

  it('stores a solved request with trimmed values; optional fields only when filled', async () => {
    const full = await send(
      {
        name: '  Анна  ',
        email: ' anna@company.ru\t',
        company: '  ООО «Ромашка» ',
        phone_number: ' 8 (912) 345-67-89 ',
        comment: '\n Хотим пилот на складе \n',
        altcha: await solved(),
      },
      { ip: nextIp() },
    );
    expect(full.status).toBe(200);
    expect(full.body.message).toBe('Спасибо! Наш специалист скоро свяжется с вами');
    const bare = await send({ name: 'Пётр', email: 'petr@example.org', company: '   ', phone_number: '', altcha: await solved() }, { ip: nextIp() });
    expect(bare.status).toBe(200);

    const [first, second] = await rows();
    expect(first).toMatchObject({
      id: full.body.id,
      name: 'Анна',
      email: 'anna@company.ru',
      company: 'ООО «Ромашка»',
      phone_number: '+79123456789',
      comment: 'Хотим пилот на складе',
      handled_at: null,
    });
    expect(Math.abs(first!.created_at - Date.now())).toBeLessThan(10_000);
    expect(second).toMatchObject({ id: bare.body.id, name: 'Пётр', email: 'petr@example.org', company: null, phone_number: null, comment: null });
  });

  it('refuses a missing, malformed, forged or replayed solution with 400 and stores nothing', async () => {
    const before = (await rows()).length;
    const form = { name: 'Анна', email: 'anna@company.ru' };

    const missing = await send(form, { ip: nextIp() });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toContain('Подтвердите, что вы не робот');

    const garbage = await send({ ...form, altcha: 'not-base64-json' }, { ip: nextIp() });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toMatchObject({ code: 'captcha_failed', message: 'Подтвердите, что вы не робот' });

    // A wrong counter, a changed parameter (the signature no longer fits), a challenge made without our secret.
    const payload = JSON.parse(Buffer.from(await solved(), 'base64').toString());
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    const wrongCounter = await send(
      { ...form, altcha: encode({ ...payload, solution: { ...payload.solution, counter: payload.solution.counter + 1 } }) },
      { ip: nextIp() },
    );
    expect(wrongCounter.status).toBe(400);
    expect(wrongCounter.body.error).toMatchObject({ code: 'captcha_failed', message: expect.stringMatching(/не пройдена/) });
    const longer = {
      ...payload,
      challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, expiresAt: payload.challenge.parameters.expiresAt + 3600 } },
    };
    expect((await send({ ...form, altcha: encode(longer) }, { ip: nextIp() })).body.error?.code).toBe('captcha_failed');
    const unsigned = { ...payload, challenge: { parameters: payload.challenge.parameters } };
    expect((await send({ ...form, altcha: encode(unsigned) }, { ip: nextIp() })).status).toBe(400);

    // The genuine solution still works once, then never again.
    const genuine = encode(payload);
    expect((await send({ ...form, altcha: genuine }, { ip: nextIp() })).status).toBe(200);
    const replay = await send({ ...form, name: 'Повтор', altcha: genuine }, { ip: nextIp() });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toMatchObject({ code: 'captcha_failed', message: expect.stringMatching(/уже использована/) });
    expect((await rows()).length).toBe(before + 1);
    expect((await rows()).some((r) => r.name === 'Повтор')).toBe(false);
  });

  it('two requests racing with one solution: exactly one is stored', async () => {
    const before = (await rows()).length;
    const altcha = await solved();
    const results = await Promise.all([1, 2, 3].map(() => send({ name: 'Гонка', email: 'race@example.org', altcha }, { ip: nextIp() })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect((await rows()).length).toBe(before + 1);
  });

  it('refuses an expired challenge', async () => {
    const short = await createTestApp({ site: site({ altchaExpireSeconds: 1 }) });
    try {
      const altcha = await solved(short);
      const { expiresAt } = JSON.parse(Buffer.from(altcha, 'base64').toString()).challenge.parameters as { expiresAt: number };
      await Bun.sleep(Math.max(0, expiresAt * 1000 - Date.now()) + 1100);
      const late = await send({ name: 'Анна', email: 'anna@company.ru', altcha }, { app: short });
      expect(late.status).toBe(400);
      expect(late.body.error).toMatchObject({ code: 'captcha_failed', message: expect.stringMatching(/устарела/) });
      expect(await rows(short)).toEqual([]);
    } finally {
      await short.cleanup();
    }
  });

  it('a challenge issued by one API process is accepted by another of the same installation (same session secret), not by a stranger', async () => {
    const [issuer, other, stranger] = await Promise.all([
      createTestApp({ site: site(), authSecret: 'installation-secret' }),
      createTestApp({ site: site(), authSecret: 'installation-secret' }),
      createTestApp({ site: site(), authSecret: 'another-installation' }),
    ]);
    try {
      const altcha = await solved(issuer);
      expect((await send({ name: 'Анна', email: 'anna@company.ru', altcha }, { app: stranger })).status).toBe(400);
      expect((await send({ name: 'Анна', email: 'anna@company.ru', altcha }, { app: other })).status).toBe(200);
    } finally {
      await Promise.all([issuer.cleanup(), other.cleanup(), stranger.cleanup()]);
    }
  });

  it('refuses bad fields with the spec prompts and stores nothing', async () => {
    const before = (await rows()).length;
    const noName = await send({ name: '   ', email: 'a@b.ru', altcha: await solved() }, { ip: nextIp() });
    expect(noName.status).toBe(400);
    expect(noName.body.error?.message).toContain('Как к вам обращаться?');
    const noEmail = await send({ name: 'Анна', altcha: await solved() }, { ip: nextIp() });
    expect(noEmail.body.error?.message).toContain('Ваш адрес электронной почты?');
    const badEmail = await send({ name: 'Анна', email: 'anna at company', altcha: await solved() }, { ip: nextIp() });
    expect(badEmail.status).toBe(400);
    const badPhone = await send({ name: 'Анна', email: 'a@b.ru', phone_number: '+1 212 555 0100', altcha: await solved() }, { ip: nextIp() });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.error?.message).toContain('российский номер');
    expect((await rows()).length).toBe(before);
  });

  it('limits requests per client address: the next one in the hour gets 429, another address is served', async () => {
    const address = nextIp();
    for (let i = 0; i < 3; i++)
      expect((await send({ name: `Лимит ${i}`, email: 'limit@example.org', altcha: await solved() }, { ip: address })).status).toBe(200);
    const fourth = await send({ name: 'Лимит 3', email: 'limit@example.org', altcha: await solved() }, { ip: address });
    expect(fourth.status).toBe(429);
    expect(fourth.body.error?.code).toBe('rate_limited');
    expect((await rows()).some((r) => r.name === 'Лимит 3')).toBe(false);
    expect((await send({ name: 'Другой', email: 'other@example.org', altcha: await solved() }, { ip: nextIp() })).status).toBe(200);
  });

  it('normalises Russian phone numbers and refuses others', () => {
    expect(normalizeRussianPhone('+7 912 345-67-89')).toBe('+79123456789');
    expect(normalizeRussianPhone('89123456789')).toBe('+79123456789');
    expect(normalizeRussianPhone('(912) 345 67 89')).toBe('+79123456789');
    expect(normalizeRussianPhone('+44 20 7946 0958')).toBeNull();
    expect(normalizeRussianPhone('12345')).toBeNull();
    expect(normalizeRussianPhone('+7 912 abc')).toBeNull();
  });
});

describe('received requests for administrators', () => {
  const list = async (cookie?: string, query = '') => {
    const response = await t.request(`/api/v3/feedback${query}`, { cookie });
    return { status: response.status, body: await response.json() };
  };
  const mark = async (id: number, handled: boolean, cookie?: string) => {
    const response = await t.request(`/api/v3/feedback/${id}/handled`, { method: 'POST', body: JSON.stringify({ handled }), cookie });
    return { status: response.status, body: await response.json() };
  };

  it('the owner organisation admin lists them newest first and marks one handled; the mark can be undone', async () => {
    const all = await list(ownerAdmin);
    expect(all.status).toBe(200);
    const stored = await rows();
    expect(all.body.total).toBe(stored.length);
    expect(all.body.items[0].id).toBe(stored.at(-1)!.id);
    expect(all.body.items.find((i: { id: number }) => i.id === stored[0]!.id)).toMatchObject({
      email: 'anna@company.ru',
      phone_number: '+79123456789',
      handled_at: null,
    });

    const target = stored[0]!.id;
    const marked = await mark(target, true, ownerAdmin);
    expect(marked.status).toBe(200);
    expect(marked.body.open).toBe(stored.length - 1);
    const handled = await list(ownerAdmin, '?status=handled');
    expect(handled.body.items).toHaveLength(1);
    expect(handled.body.items[0]).toMatchObject({ id: target, handled_by: 'Анна Владелец' });
    expect((await list(ownerAdmin, '?status=open')).body.items.some((i: { id: number }) => i.id === target)).toBe(false);

    expect((await mark(target, false, ownerAdmin)).body.open).toBe(stored.length);
    expect((await mark(999_999, true, ownerAdmin)).status).toBe(404);
    expect((await list(ownerAdmin, '?limit=0')).status).toBe(400);
  });

  it('others are refused: no sign-in 401, a viewer 403, another organisation’s admin 403; nothing changes', async () => {
    expect((await list()).status).toBe(401);
    expect((await list(ownerViewer)).status).toBe(403);
    const other = await list(otherAdmin);
    expect(other.status).toBe(403);
    expect(other.body.error.message).toMatch(/организации-владельца/);
    const id = (await rows())[0]!.id;
    expect((await mark(id, true, otherAdmin)).status).toBe(403);
    expect((await rows())[0]!.handled_at).toBeNull();
  });

  it('the contact mailbox is public', async () => {
    const response = await t.request('/api/v3/site');
    expect(await response.json()).toEqual({ contact_email: t.config.site.contactEmail });
  });
});

/** A minimal SMTP server: accepts one message at a time and keeps what it got. */
function fakeSmtp(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write('250 OK\r\n');
          continue;
        }
        const line = buffer.indexOf('\r\n');
        if (line < 0) return;
        const command = buffer.slice(0, line).toUpperCase();
        buffer = buffer.slice(line + 2);
        if (command.startsWith('EHLO') || command.startsWith('HELO')) socket.write('250 test\r\n');
        else if (command.startsWith('DATA')) {
          data = true;
          socket.write('354 go on\r\n');
        } else if (command.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, messages })));
}

describe('mail notice (NORMA_SMTP_URL, NORMA_FEEDBACK_TO)', () => {
  it('sends a notice with the request to the configured mailbox', async () => {
    const smtp = await fakeSmtp();
    const app = await createTestApp({ site: site({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, feedbackTo: 'sales@norma.local' }) });
    try {
      const sent = await send({ name: 'Анна', email: 'anna@company.ru', comment: 'Нужен пилот', altcha: await solved(app) }, { app });
      expect(sent.status).toBe(200);
      await expect.poll(() => smtp.messages.length, untilState()).toBe(1);
      expect(smtp.messages[0]).toMatch(/sales@norma\.local/);
      expect(smtp.messages[0]).toMatch(/Reply-To: anna@company\.ru/i);
    } finally {
      await app.cleanup();
      smtp.server.close();
    }
  });

  it('a mail server that is down does not fail the request', async () => {
    const app = await createTestApp({ site: site({ smtpUrl: 'smtp://127.0.0.1:9', feedbackTo: 'sales@norma.local' }) });
    try {
      const sent = await send({ name: 'Анна', email: 'anna@company.ru', altcha: await solved(app) }, { app });
      expect(sent.status).toBe(200);
      expect(await rows(app)).toHaveLength(1);
    } finally {
      await app.cleanup();
    }
  });
});
