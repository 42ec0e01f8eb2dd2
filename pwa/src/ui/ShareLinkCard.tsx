import { useState } from 'react';
import { api } from '../api/client';
import { notify } from '../status/notifications';
import { Banner } from './Banner';

interface ShareLinkCardProps {
  /** Makes a key for what is shown (the domain's own call) and gives it back. */
  createKey: () => Promise<string>;
  /** The guest address a key opens: a hash route, so that the key never reaches the server's logs as a path. */
  linkOf: (key: string) => string;
  /** What the link opens, for the dialog and the field («Ссылка на доску»). */
  label: string;
  /** One line in the dialog: what the link opens, and that it is read-only without a login. */
  explanation: string;
  /** data-testid of the card; its parts get `-button`, `-result`, `-link`, `-qr` and `-revoked` after it. */
  testId: string;
  buttonClassName?: string;
}

/**
 * «Поделиться» of a read-only guest view (the event figures, the live board), as the interactive
 * report's share button does it: a key made, the link copied, shown with its QR code, and revocable
 * (DELETE /api/v1/share/{key}). A failed copy is only logged: the link stays on screen to copy by hand.
 */
export function ShareLinkCard({ createKey, linkOf, label, explanation, testId, buttonClassName = 'button' }: ShareLinkCardProps) {
  const [shared, setShared] = useState<{ key: string; link: string; qr: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [revoked, setRevoked] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const share = async () => {
    setBusy(true);
    setError(null);
    try {
      const key = await createKey();
      const link = linkOf(key);
      const { default: QRCode } = await import('qrcode');
      const qr = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      setShared({ key, link, qr });
      setRevoked(false);
      try {
        await navigator.clipboard.writeText(link);
        notify('success', 'Ссылка скопирована!');
      } catch (copyError) {
        console.warn('Не удалось скопировать ссылку', copyError);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!shared) return;
    setError(null);
    try {
      const reply = await api.delete('/api/v1/share/{key}', { path: { key: shared.key }, quiet: true });
      notify('success', reply.message);
      setRevoked(true);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <div className={`share-panel ${testId}`} data-testid={testId}>
      <button type="button" className={buttonClassName} onClick={() => void share()} disabled={busy} data-testid={`${testId}-button`}>
        Поделиться
      </button>
      <Banner text={error} />
      {shared && (
        <div className="card share-result" data-testid={`${testId}-result`} role="dialog" aria-label={label}>
          <button type="button" className="link-button small" style={{ alignSelf: 'flex-end' }} onClick={() => setShared(null)}>
            Закрыть
          </button>
          <p className="muted small">{explanation}</p>
          <textarea
            className="share-link"
            readOnly
            rows={2}
            value={shared.link}
            aria-label={label}
            data-testid={`${testId}-link`}
            onFocus={(e) => e.currentTarget.select()}
          />
          <div className="qr" role="img" aria-label="QR-код ссылки" data-testid={`${testId}-qr`} dangerouslySetInnerHTML={{ __html: shared.qr }} />
          {revoked ? (
            <p className="muted" data-testid={`${testId}-revoked`}>
              Ссылка отозвана и больше ничего не открывает.
            </p>
          ) : (
            <button type="button" className="button danger secondary small" onClick={() => void revoke()}>
              Отозвать ссылку
            </button>
          )}
        </div>
      )}
    </div>
  );
}
