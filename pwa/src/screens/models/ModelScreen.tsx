import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { VisionModel } from '../../api/types';
import { Banner } from '../../ui/Banner';
import './vision.css';

/** /model/{modelId} (spec 02 «Model details»): the model's name and its training report, read-only. */
export function ModelScreen({ modelId: modelIdParam }: { modelId: string }) {
  const modelId = Number(modelIdParam);
  const [model, setModel] = useState<VisionModel | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!Number.isInteger(modelId) || modelId <= 0) {
      setError('Неверный номер модели');
      return;
    }
    api
      .get('/api/v1/model/{id}', { path: { id: modelId }, quiet: true })
      .then(setModel, (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [modelId]);

  if (error) {
    return (
      <section className="screen">
        <h1>Модель № {modelIdParam}</h1>
        <Banner text={error} />
      </section>
    );
  }
  if (!model) {
    return (
      <section className="screen" aria-busy="true">
        <p>Загрузка…</p>
      </section>
    );
  }
  const { meta } = model;
  return (
    <section className="screen vision-screen">
      <h1 data-testid="model-name">{meta.name}</h1>
      {meta.comment && <p className="muted">{meta.comment}</p>}
      {meta.error && <Banner text={meta.error} />}
      <label>
        Отчёт об обучении
        <textarea
          className="vision-report"
          readOnly
          value={meta.report || (meta.object_storage_key ? '' : 'Модель ещё обучается: отчёт появится, когда обучение закончится.')}
          data-testid="model-report"
        />
      </label>
    </section>
  );
}
