import { useState } from 'react';
import { api } from '../../../api/client';
import type { ShareBody } from '../../../api/types';
import { notify } from '../../../status/notifications';
import { LINK_COPIED } from '../constants';

/** The share result floats under the button instead of taking room in the page. */
const POPOVER = {
  position: 'absolute',
  top: 'calc(100% + 0.4rem)',
  right: 0,
  zIndex: 30,
  boxShadow: '0 8px 24px rgba(29, 36, 48, 0.18)',
} as const;

/**
 * The address a share key opens: the /demo/{key} screen of this PWA, as a path the server sees, so
 * that the page comes with the report inside (api/src/report/share-page.ts); the page turns it into
 * the hash route /#/demo/{key}, which opens the same screen (older links have that form).
 */
export function shareLink(key: string): string {
  return `${window.location.origin}/demo/${key}`;
}

/**
 * The share button of the interactive report (spec 01 §4 "generating a hash shows a link and a QR
 * code", §8 'Ссылка скопирована!'): makes a key for this window, copies the link, shows the link
 * and its QR code (SVG, drawn here by the qrcode package), and lets the user revoke it.
 */
export function SharePanel({ structureId, from, to }: { structureId: number; from: string; to: string }) {
  const [shared, setShared] = useState<{ key: string; link: string; qr: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [revoked, setRevoked] = useState(false);

  const share = async () => {
    setBusy(true);
    try {
      const body = { structure_id: structureId, from_time: from, to_time: to } satisfies ShareBody;
      const { hash } = await api.post('/api/v1/generate_hash', { body });
      const link = shareLink(hash);
      const { default: QRCode } = await import('qrcode');
      const qr = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      setShared({ key: hash, link, qr });
      setRevoked(false);
      try {
        await navigator.clipboard.writeText(link);
        notify('success', LINK_COPIED);
      } catch (error) {
        // spec 01 §8: a failed copy is only logged; the link stays on screen to copy by hand.
        console.warn('Не удалось скопировать ссылку', error);
      }
    } catch {
      // The API client has shown the failure.
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!shared) return;
    const reply = await api.delete('/api/v1/share/{key}', { path: { key: shared.key } }).catch(() => null);
    if (reply) {
      notify('success', reply.message);
      setRevoked(true);
    }
  };

  return (
    // The result opens over the page (a popover under the button), so the player below keeps its place.
    <div className="share-panel" style={{ position: 'relative' }}>
      <button type="button" className="button" onClick={share} disabled={busy} data-testid="share-button">
        Поделиться
      </button>
      {shared && (
        <div className="card share-result" data-testid="share-result" role="dialog" aria-label="Ссылка на отчёт" style={POPOVER}>
          <button type="button" className="link-button small" style={{ alignSelf: 'flex-end' }} onClick={() => setShared(null)} data-testid="share-close">
            Закрыть
          </button>
          <p className="muted small">Ссылка открывает этот интерактивный отчёт без входа, только для просмотра.</p>
          {/* A text area, not a one-line field: the whole link is in view at every width (issue 41). */}
          <textarea
            className="share-link"
            readOnly
            rows={2}
            value={shared.link}
            aria-label="Ссылка на отчёт"
            data-testid="share-link"
            onFocus={(e) => e.currentTarget.select()}
          />
          <div className="qr" role="img" aria-label="QR-код ссылки" data-testid="share-qr" dangerouslySetInnerHTML={{ __html: shared.qr }} />
          {revoked ? (
            <p className="muted">Ссылка отозвана и больше ничего не открывает.</p>
          ) : (
            <button type="button" className="button danger secondary small" onClick={revoke}>
              Отозвать ссылку
            </button>
          )}
        </div>
      )}
    </div>
  );
}
