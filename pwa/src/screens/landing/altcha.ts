/**
 * The robot-check widget (ALTCHA), loaded only when the contact form comes near the screen: its
 * code is a chunk of its own, so the landing page's first load does not carry it. The CSP-friendly
 * build: styles from a file, the proof-of-work worker a file of ours (no blob: or inline code).
 */
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/ru';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import type {} from 'altcha/types/global';

// The one algorithm the server issues (api/src/site/captcha.ts).
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
