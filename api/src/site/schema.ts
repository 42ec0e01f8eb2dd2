import { z } from '@hono/zod-openapi';

/** Spec 01 §5: the contact form's prompts, word for word; the server names the same ones. */
export const PROMPTS = {
  name: 'Как к вам обращаться?',
  email: 'Ваш адрес электронной почты?',
  robot: 'Подтвердите, что вы не робот',
} as const;

/** An optional text field: trimmed; empty after trimming means «not sent» (spec 01 §5). */
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field}: ожидается строка` })
    .optional()
    .transform((value, ctx) => {
      const trimmed = value?.trim();
      if (!trimmed) return undefined;
      if (trimmed.length > max) {
        ctx.addIssue({ code: 'custom', message: `не длиннее ${max} символов` });
        return z.NEVER;
      }
      return trimmed;
    });

/**
 * A Russian phone number in any usual writing (+7 912 345-67-89, 8 (912) 3456789, 9123456789):
 * stored as +7 and ten digits. There is no country selector (spec 01 §2).
 */
export function normalizeRussianPhone(raw: string): string | null {
  if (!/^[\d\s()+-]+$/.test(raw)) return null;
  const digits = raw.replace(/\D/g, '');
  const ten = digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8')) ? digits.slice(1) : digits.length === 10 ? digits : null;
  if (!ten || (raw.trim().startsWith('+') && !raw.trim().startsWith('+7'))) return null;
  return `+7${ten}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const FeedbackBody = z
  .object({
    name: z
      .string({ error: PROMPTS.name })
      .trim()
      .min(1, { error: PROMPTS.name })
      .max(200, { error: 'не длиннее 200 символов' })
      .openapi({ description: 'Как обращаться (обязательно; пробелы по краям отбрасываются)', example: 'Анна' }),
    email: z
      .string({ error: PROMPTS.email })
      .trim()
      .min(1, { error: PROMPTS.email })
      .max(254, { error: 'не длиннее 254 символов' })
      .regex(EMAIL, { error: 'адрес почты выглядит неверно (пример: name@company.ru)' })
      .openapi({ description: 'Почта для ответа (обязательно)', example: 'anna@company.ru' }),
    company: optionalText('company', 200).openapi({ type: 'string', maxLength: 200, description: 'Компания (необязательно; пустое не сохраняется)' }),
    phone_number: optionalText('phone_number', 40)
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const phone = normalizeRussianPhone(value);
        if (!phone) {
          ctx.addIssue({ code: 'custom', message: 'ожидается российский номер: +7 и 10 цифр (например, +7 912 345-67-89)' });
          return z.NEVER;
        }
        return phone;
      })
      .openapi({ type: 'string', maxLength: 40, description: 'Телефон, Россия (необязательно): хранится как +7XXXXXXXXXX', example: '+7 912 345-67-89' }),
    comment: optionalText('comment', 5000).openapi({ type: 'string', maxLength: 5000, description: 'Комментарий (необязательно)' }),
    altcha: z
      .string({ error: PROMPTS.robot })
      .min(1, { error: PROMPTS.robot })
      .max(20_000, { error: PROMPTS.robot })
      .openapi({ description: 'Решение проверки «не робот»: строка, которую виджет ALTCHA кладёт в поле altcha (base64 JSON)' }),
  })
  .openapi('FeedbackBody');

export const FeedbackReply = z
  .object({ message: z.string().openapi({ example: 'Спасибо! Наш специалист скоро свяжется с вами' }), id: z.number().int() })
  .openapi('FeedbackReply');

/** An ALTCHA v2 challenge as the widget reads it (altcha-lib `Challenge`). */
export const CaptchaChallenge = z
  .object({
    parameters: z
      .object({
        algorithm: z.string(),
        nonce: z.string(),
        salt: z.string(),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string(),
        expiresAt: z.number().optional().openapi({ description: 'Срок годности, секунды Unix' }),
      })
      .passthrough(),
    signature: z.string().optional(),
  })
  .openapi('CaptchaChallenge');

export const SiteInfo = z
  .object({ contact_email: z.string().openapi({ description: 'Почта для связи, если отправить форму не удалось' }) })
  .openapi('SiteInfo');

export const FeedbackItem = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    company: z.string().nullable(),
    phone_number: z.string().nullable(),
    comment: z.string().nullable(),
    created_at: z.string().openapi({ description: 'Когда получена (ISO 8601)' }),
    handled_at: z.string().nullable().openapi({ description: 'Когда отмечена обработанной (ISO 8601) или null' }),
    handled_by: z.string().nullable().openapi({ description: 'Кто отметил: имя и фамилия' }),
  })
  .openapi('FeedbackItem');

export const FeedbackListQuery = z.object({
  status: z
    .enum(['open', 'handled', 'all'], { error: 'status: open, handled или all' })
    .default('all')
    .openapi({ description: 'Какие заявки: open, handled, all' }),
  offset: z.coerce.number({ error: 'offset: ожидается целое число' }).int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number({ error: 'limit: ожидается целое число' }).int().min(1).max(200).default(50),
});

export const FeedbackList = z.object({ total: z.number().int(), open: z.number().int(), items: z.array(FeedbackItem) }).openapi('FeedbackList');

export const FeedbackIdParam = z.object({
  id: z
    .string()
    .max(15, { error: 'id: ожидается целое положительное число' })
    .regex(/^\d{1,15}$/, { error: 'id: ожидается целое положительное число' })
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const FeedbackHandledBody = z.object({ handled: z.boolean({ error: 'handled: ожидается true или false' }) }).openapi('FeedbackHandledBody');
