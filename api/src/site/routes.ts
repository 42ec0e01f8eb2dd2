import { createRoute } from '@hono/zod-openapi';
import { CLIENT_IP_HEADER } from '../http/client-address';
import type { MiddlewareHandler } from 'hono';
import { currentUser } from '../auth/access';
import type { AppEnv } from '../http/env';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { createRouter, ErrorSchema, errorResponses, json, openToAll } from '../http/openapi';
import { sharedRateLimiter } from '../auth/rate-limits';
import { captchaKey, createCaptcha } from './captcha';
import { CaptchaChallenge, FeedbackBody, FeedbackHandledBody, FeedbackIdParam, FeedbackList, FeedbackListQuery, FeedbackReply, SiteInfo } from './schema';
import { feedbackMailer, listFeedback, markFeedbackHandled, receiveFeedback, requireFeedbackReader } from './service';

const tags = ['Сайт и обратная связь'];
const tooMany = { description: 'Слишком много заявок с этого адреса за час', content: { 'application/json': { schema: ErrorSchema } } };

/** Spec 01 §8, word for word. */
export const FEEDBACK_THANKS = 'Спасибо! Наш специалист скоро свяжется с вами';

/**
 * The public site's calls (spec 01 §7 «POST /api/v3/feedback»; docs/site.md): the robot check's
 * challenge, the contact form, and the administrators' list of received requests.
 */
export function siteRoutes({ db, config, auth }: AppDeps) {
  const app = createRouter();
  const captcha = createCaptcha(config.site, captchaKey(auth.options.secret!));
  const requests = sharedRateLimiter(db, { scope: 'feedback', max: config.site.feedbackPerHour, windowMs: 60 * 60 * 1000 });
  const mail = feedbackMailer(config.site);
  const feedbackReader: MiddlewareHandler<AppEnv> = async (c, next) => {
    await requireFeedbackReader(db, c.get('user'));
    await next();
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v3/captcha/challenge',
      tags,
      summary: 'Задача проверки «не робот» (ALTCHA, доказательство работы): одноразовая, с истечением срока',
      description: 'Виджет altcha в браузере решает её и кладёт решение в поле altcha формы. Выдаётся этим сервером, без внешних служб.',
      responses: { 200: json(CaptchaChallenge) },
    }),
    async (c) => {
      c.header('cache-control', 'no-store');
      return c.json(await captcha.challenge(), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v3/site',
      tags,
      summary: 'Сведения для публичного сайта: почта для связи',
      responses: { 200: json(SiteInfo) },
    }),
    (c) => c.json({ contact_email: config.site.contactEmail }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v3/feedback',
      tags,
      summary: 'Заявка из формы обратной связи (без входа; нужна пройденная проверка «не робот»)',
      description:
        'Значения обрезаются по краям; необязательные поля сохраняются, только если заполнены. Решение проверки принимается один раз. ' +
        'Ошибка проверки — 400 с кодом captcha_failed; больше NORMA_FEEDBACK_PER_HOUR заявок в час с одного адреса — 429.',
      middleware: [openToAll] as const,
      request: { body: { content: { 'application/json': { schema: FeedbackBody } }, required: true } },
      responses: { 200: json(FeedbackReply), 400: errorResponses[400], 429: tooMany },
    }),
    async (c) => {
      const { altcha, ...input } = c.req.valid('json');
      if (!(await requests.take(c.req.header(CLIENT_IP_HEADER) ?? 'unknown'))) {
        throw new ApiError(429, 'rate_limited', 'Слишком много заявок с этого адреса. Попробуйте снова через час.');
      }
      const id = await receiveFeedback(db, captcha, altcha, input);
      mail?.(id, input);
      return c.json({ message: FEEDBACK_THANKS, id }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v3/feedback',
      tags,
      summary: 'Полученные заявки, новые сверху (администраторы организации-владельца)',
      middleware: [feedbackReader] as const,
      request: { query: FeedbackListQuery },
      responses: { 200: json(FeedbackList), ...errorResponses },
    }),
    async (c) => c.json(await listFeedback(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v3/feedback/{id}/handled',
      tags,
      summary: 'Отметить заявку обработанной или снять отметку (администраторы организации-владельца)',
      middleware: [feedbackReader] as const,
      request: { params: FeedbackIdParam, body: { content: { 'application/json': { schema: FeedbackHandledBody } }, required: true } },
      responses: { 200: json(FeedbackList.pick({ open: true })), ...errorResponses },
    }),
    async (c) => {
      await markFeedbackHandled(db, currentUser(c), Number(c.req.valid('param').id), c.req.valid('json').handled);
      const { open } = await listFeedback(db, { status: 'open', offset: 0, limit: 1 });
      return c.json({ open }, 200);
    },
  );

  return app;
}
