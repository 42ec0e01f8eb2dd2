import { createTransport } from 'nodemailer';
import type { SessionUser } from '../http/env';
import { userAllows } from '../auth/access';
import type { SiteConfig } from '../config';
import type { Db } from '../db/database';
import { forbidden, notFound, unauthorized } from '../http/errors';
import type { Captcha } from './captcha';
import type { FeedbackBody, FeedbackItem, FeedbackListQuery } from './schema';
import type { z } from '@hono/zod-openapi';

type NewFeedback = Omit<z.output<typeof FeedbackBody>, 'altcha'>;

/**
 * Spends the robot check and stores the request in one transaction: a refused check stores
 * nothing, and a failed write leaves the check unspent.
 */
export async function receiveFeedback(db: Db, captcha: Captcha, payload: string, input: NewFeedback): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await captcha.spend(trx, payload);
    // Optional fields that were not filled stay NULL (spec 01 §5: sent only when filled).
    const row = await trx
      .insertInto('feedback')
      .values({
        name: input.name,
        email: input.email,
        company: input.company ?? null,
        phone_number: input.phone_number ?? null,
        comment: input.comment ?? null,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/**
 * Contact requests are installation-wide (the site has no organisation), so they are read by the
 * administrators of the owner organisation — the installation's first, as for the calculator's
 * settings; a self-registered organisation's admin sees none (docs/site.md). The rule is the
 * permission `site.requests` of auth/permissions.ts, which whoami sends: the PWA shows the tab by it.
 */
export async function requireFeedbackReader(db: Db, user: SessionUser | null): Promise<SessionUser> {
  if (!user) throw unauthorized();
  if (!(await userAllows(db, user, 'site.requests'))) throw forbidden('Заявки с сайта видят только администраторы организации-владельца');
  return user;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function listFeedback(
  db: Db,
  query: z.output<typeof FeedbackListQuery>,
): Promise<{ total: number; open: number; items: z.output<typeof FeedbackItem>[] }> {
  let rows = db.selectFrom('feedback as f').leftJoin('user as u', 'u.id', 'f.handled_by');
  if (query.status === 'open') rows = rows.where('f.handled_at', 'is', null);
  if (query.status === 'handled') rows = rows.where('f.handled_at', 'is not', null);
  const [page, counts] = await Promise.all([
    rows
      .select(['f.id', 'f.name', 'f.email', 'f.company', 'f.phone_number', 'f.comment', 'f.created_at', 'f.handled_at', 'u.firstName', 'u.lastName'])
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    db
      .selectFrom('feedback')
      .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('id').filterWhere('handled_at', 'is', null).as('open')])
      .executeTakeFirstOrThrow(),
  ]);
  const total = query.status === 'all' ? Number(counts.all) : query.status === 'open' ? Number(counts.open) : Number(counts.all) - Number(counts.open);
  return {
    total,
    open: Number(counts.open),
    items: page.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      company: r.company,
      phone_number: r.phone_number,
      comment: r.comment,
      created_at: iso(r.created_at)!,
      handled_at: iso(r.handled_at),
      handled_by: r.handled_at !== null && r.firstName !== null ? `${r.firstName} ${r.lastName ?? ''}`.trim() : null,
    })),
  };
}

export async function markFeedbackHandled(db: Db, user: SessionUser, id: number, handled: boolean): Promise<void> {
  const result = await db
    .updateTable('feedback')
    .set(handled ? { handled_at: Date.now(), handled_by: user.id } : { handled_at: null, handled_by: null })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(`Заявки № ${id} нет`);
}

/**
 * A notice of a new request by mail, when NORMA_SMTP_URL and NORMA_FEEDBACK_TO are set. Sent after
 * the answer: a mail server that is down or slow never fails nor holds the visitor's request; a
 * failure is logged (the request is in the administrators' list either way).
 */
export function feedbackMailer(config: SiteConfig): ((id: number, input: NewFeedback) => void) | null {
  if (!config.smtpUrl || !config.feedbackTo) return null;
  const transport = createTransport(config.smtpUrl);
  const to = config.feedbackTo;
  return (id, input) => {
    const lines = [
      `Новая заявка с сайта № ${id}`,
      '',
      `Имя: ${input.name}`,
      `Почта: ${input.email}`,
      input.company && `Компания: ${input.company}`,
      input.phone_number && `Телефон: ${input.phone_number}`,
      input.comment && `Комментарий: ${input.comment}`,
    ].filter((line) => line !== undefined);
    transport
      .sendMail({ from: config.smtpFrom, to, replyTo: input.email, subject: `Norma: заявка с сайта от ${input.name}`, text: lines.join('\n') })
      .catch((err: unknown) => console.error(`[site] письмо о заявке № ${id} не отправлено: ${err instanceof Error ? err.message : String(err)}`));
  };
}
