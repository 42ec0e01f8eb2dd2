import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { formatDateTimeSeconds } from '../../format/time';
import { waitForJob } from '../../api/jobs';
import type { Camera, Job, UploadResult } from '../../api/types';
import { LeafStructureSelect } from '../../ui/LeafStructureSelect';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { Tabs } from '../../ui/Tabs';
import { login } from '../../state/login';
import { deleteFailedVideo, retryFailedVideo } from '../task-list/FailedUploads';
import { RecordingStartEditor, START_SOURCE_TEXT, type StartState } from '../task-list/RecordingStart';
import { inputModes, isAcceptedVideo, NAMING_HINT, NO_SUCH_MODE, UNSUPPORTED_FORMAT, UPLOAD_ACCEPT, uploadRecording, type InputMode } from './upload';

/** What the upload list shows of an ingest job (GET /api/v1/jobs/{id}); known as queued before the first poll. */
type TrackedJob = Pick<Job, 'id' | 'status' | 'progress' | 'error'>;

interface Tracked {
  filename: string;
  uploadPercent: number;
  job: TrackedJob | null;
  error: string | null;
  /** The registered video, once the upload is through. */
  videoId: number | null;
  deleted: boolean;
  /** The recording's start as the upload found it, and the sender's file time offered when it is unknown. */
  start: StartState | null;
  suggested: string | null;
}

/** The start found at upload, to confirm (or give, when unknown); once confirmed, a line with where it came from. */
function UploadStart({ item, timeZone, onSaved }: { item: Tracked; timeZone: string; onSaved: (start: StartState) => void }) {
  const { start } = item;
  if (!start || item.deleted || item.job?.status === 'failed') return null;
  if (start.confirmed && start.startTime)
    return (
      <span data-testid="confirmed-start">
        Начало записи подтверждено: {formatDateTimeSeconds(start.startTime, timeZone)} ({START_SOURCE_TEXT[start.source]})
      </span>
    );
  return (
    <RecordingStartEditor
      start={start}
      suggested={item.suggested}
      timeZone={timeZone}
      action="Подтвердить"
      onSaved={(saved) => onSaved({ videoId: saved.video_id, startTime: saved.start_time, source: saved.start_source, confirmed: saved.start_confirmed })}
    />
  );
}

function JobProgress({
  item,
  timeZone,
  onRetry,
  onDelete,
  onStart,
}: {
  item: Tracked;
  timeZone: string;
  onRetry: () => void;
  onDelete: () => void;
  onStart: (start: StartState) => void;
}) {
  const failedJob = item.job?.status === 'failed' && item.videoId !== null;
  const startKnown = item.start?.startTime != null;
  const stage = item.deleted
    ? 'Запись удалена'
    : item.error
      ? `Ошибка: ${item.error}`
      : !item.job
        ? `Загрузка: ${item.uploadPercent.toFixed(0)} %`
        : item.job.status === 'success'
          ? startKnown
            ? 'Готово: запись появилась в задачах разметки'
            : 'Готово: укажите начало записи — тогда она появится в задачах разметки'
          : item.job.status === 'failed'
            ? `Обработка не удалась: ${item.job.error ?? ''}`
            : `Обработка: ${item.job.progress.toFixed(0)} %`;
  const percent = item.job ? item.job.progress : item.uploadPercent;
  return (
    <li className="job" data-testid="upload-job">
      <strong>{item.filename}</strong>
      <div className="progress large" role="progressbar" aria-valuenow={Math.round(percent)} aria-valuemin={0} aria-valuemax={100}>
        <div style={{ width: `${percent}%` }} />
      </div>
      <span>
        {stage}
        {item.job?.status === 'success' && startKnown && item.videoId !== null && (
          <>
            {' '}
            <Link href={`/video/${item.videoId}`}>Открыть задачу</Link>
          </>
        )}
      </span>
      <UploadStart item={item} timeZone={timeZone} onSaved={onStart} />
      {failedJob && !item.deleted && (
        <div className="row-actions">
          <button type="button" className="button secondary" onClick={onRetry}>
            Повторить обработку
          </button>
          <button type="button" className="button danger secondary" onClick={onDelete}>
            Удалить запись
          </button>
        </div>
      )}
    </li>
  );
}

/** Each read of the ingest job moves the bar: the real progress, never a fake. A failed read the API client has shown. */
function followJob(jobId: number, signal: AbortSignal, update: (change: Partial<Tracked>) => void) {
  return waitForJob(jobId, { signal, onRead: (job) => update({ job }) }).catch((err: Error) => update({ error: err.message }));
}

const newItem = (filename: string): Tracked => ({
  filename,
  uploadPercent: 0,
  job: null,
  error: null,
  videoId: null,
  deleted: false,
  start: null,
  suggested: null,
});

/** An item once its upload is through: the video, its queued ingest job, the start the server found. */
const uploaded = (reply: UploadResult): Partial<Tracked> => ({
  uploadPercent: 100,
  videoId: reply.video_id,
  job: { id: reply.job_id, status: 'queued', progress: 0, error: null },
  start: { videoId: reply.video_id, startTime: reply.start_time, source: reply.start_source, confirmed: reply.start_confirmed },
  suggested: reply.suggested_start_time,
});

/** The upload form: what is accepted and how a name carries the start, structure, camera, file. */
function UploadForm(props: {
  structureId: number | null;
  onStructure: (id: number | null) => void;
  cameras: Camera[];
  cameraId: number | null;
  onCamera: (id: number | null) => void;
  onFile: (file: File | null) => void;
  onStart: () => void;
  error: string | null;
}) {
  const { cameras } = props;
  return (
    <section className="card">
      <p>
        Загрузите запись камеры или телефона — MP4, MOV, AVI (в том числе MPEG-4 и MJPEG), MKV, WebM или MPEG-TS: она будет проверена, при необходимости
        перекодирована в MP4 и появится в задачах разметки.
      </p>
      <p className="muted" data-testid="naming-hint">
        {NAMING_HINT}
      </p>
      <div className="row">
        <LeafStructureSelect value={props.structureId} onChange={props.onStructure} />
        <label>
          Камера
          <select value={props.cameraId ?? ''} onChange={(e) => props.onCamera(e.target.value ? Number(e.target.value) : null)} disabled={cameras.length === 0}>
            <option value="">—</option>
            {cameras.map((c) => (
              <option key={c.id} value={c.id}>
                {c.camera_key}: {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Файл
          <input type="file" accept={UPLOAD_ACCEPT} onChange={(e) => props.onFile(e.target.files?.[0] ?? null)} />
        </label>
        <button type="button" className="button" onClick={props.onStart}>
          Загрузить и обработать
        </button>
      </div>
      <Banner text={props.error} />
    </section>
  );
}

/** spec 01 "New-project screen": three input modes, one shown at a time; real upload and ingest. */
export function NewProjectScreen() {
  const [mode, setMode] = useState<InputMode>('timelapse');
  const [structureId, setStructureId] = useState<number | null>(null);
  const [cameras, setCameras] = useState<Camera[]>([]);
  const [cameraId, setCameraId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tracked, setTracked] = useState<Tracked[]>([]);
  const { timeZone } = useSnapshot(login);

  useEffect(() => {
    setCameras([]);
    setCameraId(null);
    if (structureId !== null) api.get('/api/v1/cameras', { query: { structure_id: structureId } }).then(setCameras, () => {});
  }, [structureId]);

  // Job waits stop when the screen goes away.
  const unmounted = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    unmounted.current = controller;
    return () => controller.abort();
  }, []);

  const chooseFile = (chosen: File | null) => {
    setError(null);
    setFile(null);
    if (!chosen) return;
    if (!isAcceptedVideo(chosen.name)) {
      setError(UNSUPPORTED_FORMAT);
      return;
    }
    setFile(chosen);
  };

  // A recording whose processing failed is deleted on the server (row and any file left).
  const removeFailed = async (index: number) => {
    const videoId = tracked[index]?.videoId;
    if (videoId == null || !(await deleteFailedVideo(videoId))) return;
    setTracked((list) => list.map((t, i) => (i === index ? { ...t, deleted: true } : t)));
  };

  const follow = (jobId: number, update: (change: Partial<Tracked>) => void) => followJob(jobId, unmounted.current.signal, update);
  const updater = (index: number) => (change: Partial<Tracked>) => setTracked((list) => list.map((t, i) => (i === index ? { ...t, ...change } : t)));

  // A recording whose processing failed (a full disk, say) is processed again: a new job, followed like the first.
  const retryFailed = async (index: number) => {
    const videoId = tracked[index]?.videoId;
    const reply = videoId == null ? null : await retryFailedVideo(videoId);
    if (!reply) return;
    const update = updater(index);
    update({ error: null, job: { id: reply.job_id, status: 'queued', progress: 0, error: null } });
    await follow(reply.job_id, update);
  };

  const start = async () => {
    if (!file) return setError('Выберите видеофайл');
    if (cameraId === null) return setError('Выберите структурную единицу и камеру');
    setError(null);
    const index = tracked.length;
    setTracked((list) => [...list, newItem(file.name)]);
    const update = updater(index);
    let reply;
    try {
      reply = await uploadRecording(cameraId, file, (uploadPercent) => update({ uploadPercent }));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      update({ error: message });
      notify('error', message);
      return;
    }
    update(uploaded(reply));
    setMode('analysis');
    await follow(reply.job_id, update);
  };

  return (
    <div className="new-project">
      <h1>Новый проект</h1>
      <Tabs tabs={inputModes} value={mode} onChange={setMode} />
      {mode === 'timelapse' ? (
        <UploadForm
          structureId={structureId}
          onStructure={setStructureId}
          cameras={cameras}
          cameraId={cameraId}
          onCamera={setCameraId}
          onFile={chooseFile}
          onStart={start}
          error={error}
        />
      ) : mode === 'cloud' ? (
        <section className="card">
          <p>
            Подключение облачного диска пока недоступно. Чтобы записи с компьютера видеорегистратора приходили сами, установите загрузчик (кнопка «Загрузчик» на
            странице проектов).
          </p>
        </section>
      ) : mode === 'analysis' ? (
        <section className="card">
          <h2>Анализ файлов</h2>
          {tracked.length === 0 ? (
            <p className="muted">Загрузите файл на вкладке «Таймлапс MP4» — здесь будет виден ход его обработки.</p>
          ) : (
            <ul className="jobs">
              {tracked.map((item, i) => (
                <JobProgress
                  key={i}
                  item={item}
                  timeZone={timeZone}
                  onRetry={() => retryFailed(i)}
                  onDelete={() => removeFailed(i)}
                  onStart={(start) => updater(i)({ start })}
                />
              ))}
            </ul>
          )}
        </section>
      ) : (
        <Banner text={NO_SUCH_MODE} />
      )}
    </div>
  );
}
