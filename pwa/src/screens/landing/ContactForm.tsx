import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ApiCallError, api } from '../../api/client';
import type { FeedbackBody } from '../../api/types';
import type {} from 'altcha/types/react';

/** Spec 01 §5 and §8, word for word. */
export const PROMPTS = { name: 'Как к вам обращаться?', email: 'Ваш адрес электронной почты?', robot: 'Подтвердите, что вы не робот' } as const;
export const THANKS = 'Спасибо! Наш специалист скоро свяжется с вами';
const CHALLENGE_URL = '/api/v3/captcha/challenge';

/** Digits of a Russian number as +7 (XXX) XXX-XX-XX while typing; a leading 7 or 8 is the country code. */
export function formatRussianPhone(raw: string): string {
  let digits = raw.replace(/\D/g, '');
  if (digits.length === 11 && (digits[0] === '7' || digits[0] === '8')) digits = digits.slice(1);
  else if (digits.length > 10 && (digits[0] === '7' || digits[0] === '8')) digits = digits.slice(1);
  digits = digits.slice(0, 10);
  if (!digits) return '';
  const parts = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 8), digits.slice(8, 10)];
  let out = `+7 (${parts[0]}`;
  if (digits.length > 3) out += `) ${parts[1]}`;
  if (digits.length > 6) out += `-${parts[2]}`;
  if (digits.length > 8) out += `-${parts[3]}`;
  return out;
}

type Phase = { kind: 'input' } | { kind: 'sending' } | { kind: 'done' } | { kind: 'failed'; text: string };

/**
 * The robot check: the altcha web component, its code loaded once the form is near the screen
 * (or a field is focused). Reports the solved payload, or null when there is none (again).
 */
function RobotCheck({ onToken, resetKey }: { onToken: (token: string | null) => void; resetKey: number }) {
  const host = useRef<HTMLDivElement>(null);
  const widget = useRef<HTMLElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = host.current;
    if (!element || loaded) return;
    const load = () =>
      import('./altcha').then(
        () => setLoaded(true),
        () => setFailed(true),
      );
    // Lighthouse and a visitor reading the top of the page do not pay for the widget.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        void load();
      }
    });
    observer.observe(element);
    const form = element.closest('form');
    form?.addEventListener('focusin', load, { once: true });
    return () => {
      observer.disconnect();
      form?.removeEventListener('focusin', load);
    };
  }, [loaded]);

  useEffect(() => {
    const element = widget.current;
    if (!loaded || !element) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string | null }>).detail;
      onToken(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', onState);
    return () => element.removeEventListener('statechange', onState);
  }, [loaded, onToken, resetKey]);

  if (failed) return <p className="field-error">Не удалось загрузить проверку «не робот». Обновите страницу.</p>;
  return (
    <div ref={host} className="robot-check" data-testid="robot-check">
      {loaded ? (
        // A new key after a refused check: a fresh widget asks for a fresh challenge.
        <div key={resetKey}>
          <altcha-widget
            ref={widget}
            challenge={CHALLENGE_URL}
            language="ru"
            name="altcha"
            configuration={JSON.stringify({ hideFooter: true, credentials: 'same-origin' })}
          />
        </div>
      ) : (
        <div className="robot-check-placeholder">Проверка «не робот» загружается…</div>
      )}
    </div>
  );
}

/**
 * Spec 01 «Contact form (landing)», §5, §7, §8: name, email, company, phone (Russia, no country
 * selector), comment and the robot check; input → spinner → result. Submit waits for the name,
 * the email and the robot token; values are trimmed and optional ones sent only when filled.
 */
export function ContactForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [company, setCompany] = useState('');
  const [phone, setPhone] = useState('');
  const [comment, setComment] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const [touched, setTouched] = useState({ name: false, email: false });
  const [phase, setPhase] = useState<Phase>({ kind: 'input' });
  const [notice, setNotice] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [contactEmail, setContactEmail] = useState<string | null>(null);

  useEffect(() => {
    api.get('/api/v3/site', { quiet: true }).then(
      (info) => setContactEmail(info.contact_email),
      () => setContactEmail(null),
    );
  }, []);

  const ready = Boolean(name.trim() && email.trim() && token);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || !token) return;
    const body: FeedbackBody = { name: name.trim(), email: email.trim(), altcha: token };
    if (company.trim()) body.company = company.trim();
    if (phone.trim()) body.phone_number = phone.trim();
    if (comment.trim()) body.comment = comment.trim();
    setNotice(null);
    setPhase({ kind: 'sending' });
    try {
      await api.post('/api/v3/feedback', { body, quiet: true });
      setPhase({ kind: 'done' });
    } catch (err) {
      // A refused robot check or a bad field is the visitor's to fix: back to the form, a new check.
      if (err instanceof ApiCallError && (err.status === 400 || err.status === 429)) {
        setNotice(err.message);
        setToken(null);
        setResetKey((key) => key + 1);
        setPhase({ kind: 'input' });
        return;
      }
      const mailbox = contactEmail ? `: ${contactEmail}` : ', указанную внизу страницы';
      setPhase({ kind: 'failed', text: `Не удалось отправить заявку: на сервере возникли проблемы. Напишите нам на почту${mailbox}.` });
    }
  };

  if (phase.kind === 'sending')
    return (
      <div className="contact-state" role="status" aria-live="polite" data-testid="contact-sending">
        <span className="spinner" aria-hidden="true" />
        Отправляем заявку…
      </div>
    );
  if (phase.kind === 'done')
    return (
      <div className="contact-state banner banner-success" role="status" data-testid="contact-result">
        {THANKS}
      </div>
    );
  if (phase.kind === 'failed')
    return (
      <div className="contact-state" data-testid="contact-result">
        <div className="banner banner-error" role="alert">
          {phase.text}
        </div>
        <button type="button" className="button secondary" onClick={() => setPhase({ kind: 'input' })}>
          Вернуться к форме
        </button>
      </div>
    );

  const nameMissing = touched.name && !name.trim();
  const emailMissing = touched.email && !email.trim();
  return (
    <form className="contact-form card" onSubmit={submit} noValidate data-testid="contact-form">
      <div className="contact-grid">
        <label>
          Имя *
          <input
            name="name"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, name: true }))}
            aria-invalid={nameMissing}
            aria-describedby="contact-name-prompt"
            maxLength={200}
          />
          {nameMissing && (
            <span id="contact-name-prompt" className="field-error">
              {PROMPTS.name}
            </span>
          )}
        </label>
        <label>
          Email *
          <input
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, email: true }))}
            aria-invalid={emailMissing}
            aria-describedby="contact-email-prompt"
            maxLength={254}
          />
          {emailMissing && (
            <span id="contact-email-prompt" className="field-error">
              {PROMPTS.email}
            </span>
          )}
        </label>
        <label>
          Компания
          <input name="company" autoComplete="organization" value={company} onChange={(e) => setCompany(e.target.value)} maxLength={200} />
        </label>
        <label>
          Телефон
          <input
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            placeholder="+7 (912) 345-67-89"
            value={phone}
            onChange={(e) => setPhone(formatRussianPhone(e.target.value))}
          />
        </label>
      </div>
      <label>
        Комментарий
        <textarea name="comment" rows={4} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={5000} />
      </label>
      <RobotCheck onToken={setToken} resetKey={resetKey} />
      {!token && (name.trim() || email.trim()) && (
        <p className="muted robot-prompt" data-testid="robot-prompt">
          {PROMPTS.robot}
        </p>
      )}
      {notice && (
        <div className="banner banner-error" role="alert">
          {notice}
        </div>
      )}
      <p className="muted small">
        Отправляя форму, вы даёте <Link href="/legal/consent">согласие на обработку персональных данных</Link>.
      </p>
      <div className="actions">
        <button type="submit" className="button" disabled={!ready} data-testid="contact-submit">
          Отправить
        </button>
      </div>
    </form>
  );
}
