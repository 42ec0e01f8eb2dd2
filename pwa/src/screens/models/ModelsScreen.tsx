import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { SuggestionPanel } from '../../ml/SuggestionPanel';
import { useLiveSuggestion } from '../../ml/useLiveSuggestion';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { AreasPanel } from './AreasPanel';
import { FrameCanvas, type FrameRect } from './FrameCanvas';
import { FramePlayer, type CapturedFrame } from './FramePlayer';
import { ModelsTable } from './ModelsTable';
import { TrainingForm } from './TrainingForm';
import { useModels, type ModelsState } from './useModels';
import './vision.css';

/** Before applying (issue 43): the video's picture differs from the model's training picture — apply anyway or not. */
function PictureWarnings({ state }: { state: ModelsState }) {
  const asking = state.pictureWarnings;
  if (!asking) return null;
  return (
    <div className="card warning" role="alertdialog" aria-labelledby="picture-warnings-title" data-testid="picture-warnings">
      <h3 id="picture-warnings-title">Кадр видео не такой, как при обучении модели «{asking.model.meta.name}»</h3>
      <ul>
        {asking.warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      <button type="button" className="button small" onClick={() => void state.applyNow(asking.model)}>
        Всё равно применить
      </button>{' '}
      <button type="button" className="button secondary small" onClick={() => state.dismissPictureWarnings()}>
        Не применять
      </button>
    </div>
  );
}

/** «Модели камеры»: the employee «Применить» writes for, the models' table, and the training form. */
function ModelsCard({ videoId, state, canWrite }: { videoId: number; state: ModelsState; canWrite: boolean }) {
  const { models, meta, operations, areas } = state;
  return (
    <section className="card" aria-labelledby="models-title">
      <h2 id="models-title">Модели камеры</h2>
      {models === null ? (
        <p className="muted">Загрузка…</p>
      ) : (
        <>
          {canWrite && models.some((m) => m.meta.object_storage_key) && (
            <label className="inline">
              Сотрудник для разметки модели
              <select value={state.applyEmployee ?? ''} onChange={(e) => state.setApplyEmployee(e.target.value ? Number(e.target.value) : null)}>
                <option value="">— сотрудник рабочего места в этот день —</option>
                {state.employees.map((e) => (
                  <option key={e.id} value={e.id}>
                    {e.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <PictureWarnings state={state} />
          <ModelsTable
            models={models}
            operations={operations}
            areas={areas}
            canWrite={canWrite}
            onApply={(m) => void state.apply(m)}
            onDelete={(m) => void state.remove(m)}
            onCancel={(m, jobId) => void state.cancel(m, jobId)}
          />
        </>
      )}
      {canWrite && meta && (
        <TrainingForm
          videoId={videoId}
          duration={meta.duration}
          workplaces={state.workplaces}
          operations={operations}
          areas={areas}
          onStarted={() => void state.loadModels()}
        />
      )}
    </section>
  );
}

/**
 * /models/{videoId} (spec 02 «Model training screen», docs/vision.md): the camera's models with
 * progress, apply and delete; the training form; the video areas drawn on the current frame; and a
 * model's suggestion run in the browser during playback.
 */
export function ModelsScreen({ videoId: videoIdParam }: { videoId: string }) {
  const videoId = Number(videoIdParam);
  const canWrite = useAllows('workspace.write');
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useModels(videoId, videoRef);
  const { meta, models, areas } = state;
  const [frame, setFrame] = useState<CapturedFrame | null>(null);
  const [rect, setRect] = useState<FrameRect | null>(null);
  const suggestion = useLiveSuggestion(videoRef, state.suggestModel);

  if (state.loadError) {
    return (
      <section className="screen">
        <h1>Обучение моделей</h1>
        <Banner text={state.loadError} />
      </section>
    );
  }
  return (
    <section className="screen vision-screen">
      <h1>Обучение моделей по видео «{meta?.filename ?? videoId}»</h1>
      <p className="muted">
        <Link href={`/video/${videoId}`}>к разметке видео</Link> · <Link href={`/models-stand-locations/${videoId}`}>расположения стендов</Link>
        {meta && (
          <>
            {' '}
            · <Link href={`/models-stands/${meta.structure_id}`}>стенды и базисы</Link>
          </>
        )}
      </p>
      <div className="vision-media">
        <div>
          <FramePlayer videoRef={videoRef} videoId={videoId} onFrame={setFrame} />
          {models && <SuggestionPanel models={models} modelId={state.suggestModel} onModel={state.setSuggestModel} state={suggestion} />}
        </div>
        <FrameCanvas
          frame={frame}
          rect={rect}
          onRect={setRect}
          boxes={areas.map((a) => ({
            key: String(a.id),
            x1: a.x1,
            y1: a.y1,
            x2: a.x2,
            y2: a.y2,
            frame: a.frame_width && a.frame_height ? { width: a.frame_width, height: a.frame_height } : null,
            color: '#1f6feb',
          }))}
        />
      </div>
      <ModelsCard videoId={videoId} state={state} canWrite={canWrite} />
      {meta && (
        <AreasPanel
          cameraId={meta.camera_id}
          areas={areas}
          rect={rect}
          frame={frame}
          canWrite={canWrite}
          onChanged={() => void state.loadAreas()}
          onAdded={() => setRect(null)}
        />
      )}
    </section>
  );
}
