import type { FailureBody } from '../../api/client';
import { apiCallUrl } from '../../api/paths';
import type { UploadResult } from '../../api/types';

/** Upload of a recording and polling of its ingest job (the real progress, never a fake). */
export const ONLY_MP4 = 'Ошибка: допускается только формат MP4';
export const NO_SUCH_MODE = 'Такого способа ввода данных нет!';

export type InputMode = 'timelapse' | 'cloud' | 'analysis';
export const inputModes: { key: InputMode; label: string }[] = [
  { key: 'timelapse', label: 'Таймлапс MP4' },
  { key: 'cloud', label: 'Облачный диск' },
  { key: 'analysis', label: 'Анализ файла' },
];

export function isMp4(filename: string): boolean {
  return /\.mp4$/i.test(filename.trim());
}

/** Sends the file as the request body with XMLHttpRequest, the only browser API with upload progress. */
export function uploadRecording(cameraId: number, file: File, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', apiCallUrl('post', '/api/v1/upload', { query: { camera_id: cameraId, filename: file.name } }));
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
