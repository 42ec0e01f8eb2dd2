import type { FailureBody } from '../../api/client';
import { apiCallUrl } from '../../api/paths';
import type { UploadResult } from '../../api/types';

/**
 * Upload of a recording and polling of its ingest job (the real progress, never a fake). The
 * extensions are the API's (api/src/video/recording-name.ts UPLOAD_EXTENSIONS): containers the
 * server reads and converts to MP4 for browsers (issue 41 widened spec 01's «only MP4»).
 */
export const UPLOAD_EXTENSIONS = ['mp4', 'm4v', 'mov', '3gp', 'mkv', 'webm', 'avi', 'ts', 'mts', 'm2ts'];
export const UNSUPPORTED_FORMAT = `Ошибка: допускаются видеофайлы MP4, MOV, AVI, MKV, WebM, MPEG-TS (${UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(', ')})`;
/** The file picker's `accept`: the same extensions (MIME types vary between systems, extensions do not). */
export const UPLOAD_ACCEPT = ['video/*', ...UPLOAD_EXTENSIONS.map((e) => `.${e}`)].join(',');
/** The recorders' naming rule that carries a recording's start (docs/video-storage.md). */
export const NAMING_HINT =
  'Начало записи берётся из имени файла вида cam1_2026-11-16_09-00-00.mp4 (время организации), иначе из метаданных файла; его надо подтвердить после загрузки.';
export const NO_SUCH_MODE = 'Такого способа ввода данных нет!';

export type InputMode = 'timelapse' | 'cloud' | 'analysis';
export const inputModes: { key: InputMode; label: string }[] = [
  { key: 'timelapse', label: 'Таймлапс MP4' },
  { key: 'cloud', label: 'Облачный диск' },
  { key: 'analysis', label: 'Анализ файла' },
];

export function isAcceptedVideo(filename: string): boolean {
  const name = filename.trim();
  const dot = name.lastIndexOf('.');
  return dot > 0 && UPLOAD_EXTENSIONS.includes(name.slice(dot + 1).toLowerCase());
}

/** Sends the file as the request body with XMLHttpRequest, the only browser API with upload progress. */
export function uploadRecording(cameraId: number, file: File, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    // The file's time on this device (a camera's card copied keeps the camera's clock): only a suggestion for an unknown start.
    const fileTime = Number.isSafeInteger(file.lastModified) && file.lastModified > 0 ? file.lastModified : undefined;
    request.open('POST', apiCallUrl('post', '/api/v1/upload', { query: { camera_id: cameraId, filename: file.name, file_time: fileTime } }));
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress((event.loaded / event.total) * 100);
    };
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {}
      if (request.status >= 200 && request.status < 300) resolve(body as UploadResult);
      else reject(new Error((body as FailureBody)?.error?.message ?? `Ошибка загрузки (${request.status})`));
    };
    request.onerror = () => reject(new Error('Нет связи с сервером: загрузка прервана.'));
    request.send(file);
  });
}
