import { useEffect, useState, type FormEvent } from 'react';
import { ApiCallError, api } from '../../api/client';
import type { FeedbackBody } from '../../api/types';

export type Phase = { kind: 'input' } | { kind: 'sending' } | { kind: 'done' } | { kind: 'failed'; text: string };

/** The form's typed fields, as typed (trimmed only when sent). */
export interface ContactFields {
  name: string;
  email: string;
  company: string;
  phone: string;
  comment: string;
}

const EMPTY: ContactFields = { name: '', email: '', company: '', phone: '', comment: '' };

/**
 * The contact form's state: the fields, which required ones were left, the robot token, the phase
 * (input → sending → done or failed) and the notice of a refused send; the mailbox the failure names
 * comes from the site's settings.
 */
export function useContactForm() {
  const [fields, setFields] = useState<ContactFields>(EMPTY);
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

  const { name, email, company, phone, comment } = fields;
  const ready = Boolean(name.trim() && email.trim() && token);

  const setField = (key: keyof ContactFields, value: string) => setFields((f) => ({ ...f, [key]: value }));
  const touch = (key: 'name' | 'email') => setTouched((t) => ({ ...t, [key]: true }));

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

  const backToForm = () => setPhase({ kind: 'input' });

  return { fields, setField, touched, touch, token, setToken, phase, backToForm, notice, resetKey, ready, submit };
}
