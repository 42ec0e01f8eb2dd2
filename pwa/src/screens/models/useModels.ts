import { type RefObject, useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { NamedItem, PictureCheck, VideoArea, VideoMeta, VisionModel } from '../../api/types';
import { notify } from '../../status/notifications';

/** How often running training and applying are re-read (their progress bars). */
const POLL_MS = 1000;

const running = (m: VisionModel) =>
  m.meta.status === 'queued' || m.meta.status === 'training' || m.meta.apply_status === 'queued' || m.meta.apply_status === 'running';

/** The video's meta and the lists its forms choose from (operations, workplaces, employees). */
function useVideoLists(videoId: number, setLoadError: (text: string) => void) {
  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [operations, setOperations] = useState<NamedItem[]>([]);
  const [workplaces, setWorkplaces] = useState<NamedItem[]>([]);
  const [employees, setEmployees] = useState<NamedItem[]>([]);
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
  }, [videoId, setLoadError]);
  return { meta, operations, workplaces, employees };
}

/**
 * The state of the model training screen, outside its components: the video, the camera's models
 * (re-read while a job runs), its areas, the employee «Применить» writes for, the model suggesting in
 * the browser, and the calls that apply, cancel and delete. Errors of the calls are shown by the API client.
 */
export function useModels(videoId: number, videoRef: RefObject<HTMLVideoElement | null>) {
  const [loadError, setLoadError] = useState<string | null>(null);
  const lists = useVideoLists(videoId, setLoadError);
  const [models, setModels] = useState<VisionModel[] | null>(null);
  const [areas, setAreas] = useState<VideoArea[]>([]);
  /** Who «Применить» writes the model's segments for; null — the workplace's employee that day. */
  const [applyEmployee, setApplyEmployee] = useState<number | null>(null);
  const [suggestModel, setSuggestModel] = useState<number | null>(null);

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
    if (!Number.isInteger(videoId) || videoId <= 0) return;
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

  /** The model asked about before applying and why (issue 43: another aspect ratio, a moved camera); null — none. */
  const [pictureWarnings, setPictureWarnings] = useState<{ model: VisionModel; warnings: string[] } | null>(null);
  // «Применить»: the picture is checked first; warnings are shown and the analyst decides, else it applies at once.
  const apply = async (item: VisionModel) => {
    setPictureWarnings(null);
    let warnings: string[];
    try {
      const check: PictureCheck = await api.get('/api/v1/model/{id}/picture-check', { path: { id: item.meta.id }, query: { video_id: videoId } });
      warnings = check.warnings;
    } catch {
      // Shown by the API client.
      return;
    }
    if (warnings.length > 0) setPictureWarnings({ model: item, warnings });
    else await applyNow(item);
  };
  const applyNow = async ({ meta: model }: VisionModel) => {
    setPictureWarnings(null);
    try {
      const reply = await api.post('/api/v1/start_marker_applying', {
        body: {
          model_id: model.id,
          unmarked_video_id: videoId,
          start_second: 0,
          end_second: lists.meta?.duration ?? videoRef.current?.duration ?? 86_400,
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

  return {
    ...lists,
    loadError,
    models,
    areas,
    applyEmployee,
    setApplyEmployee,
    suggestModel,
    setSuggestModel,
    loadModels,
    loadAreas,
    apply,
    applyNow,
    pictureWarnings,
    dismissPictureWarnings: () => setPictureWarnings(null),
    cancel,
    remove,
  };
}

export type ModelsState = ReturnType<typeof useModels>;
