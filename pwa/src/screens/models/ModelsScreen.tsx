import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import type { NamedItem, VideoArea, VideoMeta, VisionModel } from '../../api/types';
import { SuggestionPanel } from '../../ml/SuggestionPanel';
import { useLiveSuggestion } from '../../ml/useLiveSuggestion';
import { useAllows } from '../../state/login';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { AreasPanel } from './AreasPanel';
import { FrameCanvas, type FrameRect } from './FrameCanvas';
import { FramePlayer, type CapturedFrame } from './FramePlayer';
import { ModelsTable } from './ModelsTable';
import { TrainingForm } from './TrainingForm';
import './vision.css';

/** How often running training and applying are re-read (their progress bars). */
const POLL_MS = 1000;

const running = (m: VisionModel) =>
  m.meta.status === 'queued' || m.meta.status === 'training' || m.meta.apply_status === 'queued' || m.meta.apply_status === 'running';

/**
 * /models/{videoId} (spec 02 «Model training screen», docs/vision.md): the camera's models with
 * progress, apply and delete; the training form; the video areas drawn on the current frame; and a
 * model's suggestion run in the browser during playback.
 */
export function ModelsScreen({ videoId: videoIdParam }: { videoId: string }) {
  const videoId = Number(videoIdParam);
  const canWrite = useAllows('workspace.write');
  const videoRef = useRef<HTMLVideoElement>(null);
  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [models, setModels] = useState<VisionModel[] | null>(null);
  const [areas, setAreas] = useState<VideoArea[]>([]);
  const [operations, setOperations] = useState<NamedItem[]>([]);
  const [workplaces, setWorkplaces] = useState<NamedItem[]>([]);
  const [employees, setEmployees] = useState<NamedItem[]>([]);
  /** Who «Применить» writes the model's segments for; null — the workplace's employee that day. */
  const [applyEmployee, setApplyEmployee] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [frame, setFrame] = useState<CapturedFrame | null>(null);
  const [rect, setRect] = useState<FrameRect | null>(null);
  const [suggestModel, setSuggestModel] = useState<number | null>(null);
  const suggestion = useLiveSuggestion(videoRef, suggestModel);

  const loadModels = useCallback(
    () =>
      api.get('/api/v1/models', { query: { video_id: videoId }, quiet: true }).then(
        (reply) => setModels(reply.models),
        (err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)),
      ),
    [videoId],
  );
  const loadAreas = useCallback(
    () =>
      api.get('/api/v1/video-areas', { query: { video_id: videoId } }).then(
        (r) => setAreas(r.video_areas),
        () => {},
      ),
    [videoId],
  );

  useEffect(() => {
    if (!Number.isInteger(videoId) || videoId <= 0) {
      setLoadError('Неверный номер видео');
      return;
    }
    (async () => {
      try {
        const [video, available, places, people] = await Promise.all([
          api.get('/api/v1/video_meta/{videoId}', { path: { videoId } }),
          api.get('/api/v1/available_operations', { query: { video_id: videoId } }),
          api.get('/api/v1/workplaces', { query: { video_id: videoId } }),
          api.get('/api/v1/employees', { query: { video_id: videoId } }),
        ]);
        setMeta(video);
        setOperations(available.operations);
        setWorkplaces(places);
        setEmployees(people);
      } catch (err) {
        setLoadError(err instanceof Error ? err.message : String(err));
      }
    })();
    void loadModels();
    void loadAreas();
  }, [videoId, loadModels, loadAreas]);

  // Progress of queued and running jobs refreshes until every one is done.
  const busy = models?.some(running) ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void loadModels(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, loadModels]);

  const apply = async ({ meta: model }: VisionModel) => {
    try {
      const reply = await api.post('/api/v1/start_marker_applying', {
        body: {
          model_id: model.id,
          unmarked_video_id: videoId,
          start_second: 0,
          end_second: meta?.duration ?? videoRef.current?.duration ?? 86_400,
          employee_id: applyEmployee,
        },
      });
      notify('info', reply.message);
    } catch {
      // Shown by the API client.
    }
    await loadModels();
  };
  const cancel = async ({ meta: model }: VisionModel, jobId: number) => {
    try {
      await api.post('/api/v1/jobs/{id}/cancel', { path: { id: jobId } });
      notify('success', model.job_id === jobId ? `Обучение модели № ${model.id} отменено` : `Применение модели № ${model.id} отменено`);
    } catch {
      // Shown by the API client (409: the job finished meanwhile).
    }
    await loadModels();
  };
  const remove = async ({ meta: model }: VisionModel) => {
    try {
      await api.delete('/api/v1/model/{id}', { path: { id: model.id } });
      notify('success', `Модель № ${model.id} удалена`);
    } catch {
      // Shown by the API client (404: «Этой модели нет в списке!»).
    }
    if (suggestModel === model.id) setSuggestModel(null);
    await loadModels();
  };

  if (loadError) {
    return (
      <section className="screen">
        <h1>Обучение моделей</h1>
        <Banner text={loadError} />
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
          {models && <SuggestionPanel models={models} modelId={suggestModel} onModel={setSuggestModel} state={suggestion} />}
        </div>
        <FrameCanvas
          frame={frame}
          rect={rect}
          onRect={setRect}
          boxes={areas.map((a) => ({ key: String(a.id), x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2, color: '#1f6feb' }))}
        />
      </div>
      <section className="card" aria-labelledby="models-title">
        <h2 id="models-title">Модели камеры</h2>
        {models === null ? (
          <p className="muted">Загрузка…</p>
        ) : (
          <>
            {canWrite && models.some((m) => m.meta.object_storage_key) && (
              <label className="inline">
                Сотрудник для разметки модели
                <select value={applyEmployee ?? ''} onChange={(e) => setApplyEmployee(e.target.value ? Number(e.target.value) : null)}>
                  <option value="">— сотрудник рабочего места в этот день —</option>
                  {employees.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <ModelsTable
              models={models}
              operations={operations}
              areas={areas}
              canWrite={canWrite}
              onApply={(m) => void apply(m)}
              onDelete={(m) => void remove(m)}
              onCancel={(m, jobId) => void cancel(m, jobId)}
            />
          </>
        )}
        {canWrite && meta && (
          <TrainingForm
            videoId={videoId}
            duration={meta.duration}
            workplaces={workplaces}
            operations={operations}
            areas={areas}
            onStarted={() => void loadModels()}
          />
        )}
      </section>
      {meta && (
        <AreasPanel cameraId={meta.camera_id} areas={areas} rect={rect} canWrite={canWrite} onChanged={() => void loadAreas()} onAdded={() => setRect(null)} />
      )}
    </section>
  );
}
