import { useState } from 'react';
import { api } from '../../api/client';
import type { SyncResult } from '../../api/types';
import { notify } from '../../status/notifications';

export const SYNC_NEEDS_STRUCTURE = 'Надо выбрать какую-нибудь структурную единицу!';

/** Asks the server to look for new recordings of the structure's cameras and says what it found. */
export function SyncButton({ structureId }: { structureId: number | null }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SyncResult | null>(null);

  const sync = async () => {
    if (structureId === null) {
      notify('error', SYNC_NEEDS_STRUCTURE);
      return;
    }
    setBusy(true);
    try {
      const reply = await api.get('/api/v1/sync_videos', { query: { structure_id: structureId } });
      setResult(reply);
      notify('success', reply.new_videos.length ? `Найдено новых записей: ${reply.new_videos.length}` : 'Новых записей нет');
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sync">
      <button type="button" className="button secondary" onClick={sync} disabled={busy}>
        {busy ? 'Синхронизация…' : 'Синхронизировать'}
      </button>
      {result && result.new_videos.length > 0 && (
        <div className="sync-result" data-testid="sync-result">
          <p>
            Новые записи ({result.new_videos.length}), поставлены в обработку: {result.queued_processing_videos.length}
          </p>
          <ul>
            {result.new_videos.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
