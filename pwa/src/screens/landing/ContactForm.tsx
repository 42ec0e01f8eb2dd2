import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type {} from 'altcha/types/react';
import { useContactForm, type ContactFields, type Phase } from './useContactForm';

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

/** The form's place after a send: the spinner, the thanks, or the failure with the way back. */
function ContactState({ phase, backToForm }: { phase: Exclude<Phase, { kind: 'input' }>; backToForm: () => void }) {
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
  return (
    <div className="contact-state" data-testid="contact-result">
      <div className="banner banner-error" role="alert">
        {phase.text}
      </div>
      <button type="button" className="button secondary" onClick={backToForm}>
        Вернуться к форме
      </button>
    </div>
  );
}

interface FieldsProps {
  fields: ContactFields;
  setField: (key: keyof ContactFields, value: string) => void;
  touched: { name: boolean; email: boolean };
  touch: (key: 'name' | 'email') => void;
}

/** Name and email (required, with their prompts once left empty), company and phone. */
function ContactGrid({ fields, setField, touched, touch }: FieldsProps) {
  const { name, email, company, phone } = fields;
  const nameMissing = touched.name && !name.trim();
  const emailMissing = touched.email && !email.trim();
  return (
    <div className="contact-grid">
      <label>
        Имя *
        <input
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => setField('name', e.target.value)}
          onBlur={() => touch('name')}
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
          onChange={(e) => setField('email', e.target.value)}
          onBlur={() => touch('email')}
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
        <input name="company" autoComplete="organization" value={company} onChange={(e) => setField('company', e.target.value)} maxLength={200} />
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
          onChange={(e) => setField('phone', formatRussianPhone(e.target.value))}
        />
      </label>
    </div>
  );
}

/**
 * Spec 01 «Contact form (landing)», §5, §7, §8: name, email, company, phone (Russia, no country
 * selector), comment and the robot check; input → spinner → result. Submit waits for the name,
 * the email and the robot token; values are trimmed and optional ones sent only when filled.
 */
export function ContactForm() {
  const { fields, setField, touched, touch, token, setToken, phase, backToForm, notice, resetKey, ready, submit } = useContactForm();
  if (phase.kind !== 'input') return <ContactState phase={phase} backToForm={backToForm} />;
  const { name, email, comment } = fields;
  return (
    <form className="contact-form card" onSubmit={submit} noValidate data-testid="contact-form">
      <ContactGrid fields={fields} setField={setField} touched={touched} touch={touch} />
      <label>
        Комментарий
        <textarea name="comment" rows={4} value={comment} onChange={(e) => setField('comment', e.target.value)} maxLength={5000} />
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
