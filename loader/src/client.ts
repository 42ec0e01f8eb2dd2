import { basename } from 'node:path';
import { LoaderError, retryableStatus } from './retry';

export interface ClientOptions {
  /** Server address, e.g. https://norma.example.com */
  server: string;
  login: string;
  password: string;
  /** Replaced in tests. */
  fetch?: typeof fetch;
  /** Limit for short calls (sign-in, checks), ms. Uploads have none: files are large. */
  timeoutMs?: number;
}

export interface UploadReply {
  video_id: number;
  job_id: number;
  filename: string;
  /** Null when neither the file's name nor its metadata told when it began: someone gives it in the task list. */
  start_time: string | null;
}

export type UploadOutcome = ({ kind: 'uploaded' } & UploadReply) | { kind: 'duplicate'; video_id: number | null };

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {}
  return text.trim().slice(0, 300) || `HTTP ${response.status}`;
}

/** The Norma API as the loader uses it: sign-in (cookie), camera lookup, content check, upload. */
export class NormaClient {
  private cookie: string | null = null;
  private readonly base: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.base = options.server.replace(/\/+$/, '');
    this.fetch = options.fetch ?? fetch;
  }

  private async send(path: string, init: RequestInit & { long?: boolean } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    try {
      return await this.fetch(`${this.base}${path}`, {
        ...init,
        headers,
        signal: init.signal ?? (init.long ? undefined : AbortSignal.timeout(this.options.timeoutMs ?? 30_000)),
      });
    } catch (err) {
      // No answer at all: the network or the server is down. Always worth another try.
      throw new LoaderError(`Нет связи с сервером ${this.base}: ${err instanceof Error ? err.message : err}`, true);
    }
  }

  /** Signs in with login and password (POST /api/v1/login) and keeps the session cookie. */
  async signIn(): Promise<void> {
    const response = await this.send('/api/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: this.options.login, password: this.options.password }),
    });
    if (!response.ok) {
      const message = await errorMessage(response);
      throw new LoaderError(`Вход не выполнен: ${message}`, retryableStatus(response.status), response.status);
    }
    this.cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .filter((c) => !c.endsWith('='))
      .join('; ');
    if (!this.cookie) throw new LoaderError('Сервер не выдал сессию после входа', false);
  }

  /** A call that signs in again once when the session has expired (401). */
  private async call(path: string, init: RequestInit & { long?: boolean } = {}, bodyFactory?: () => BodyInit): Promise<Response> {
    if (!this.cookie) await this.signIn();
    let response = await this.send(path, { ...init, body: bodyFactory?.() ?? init.body });
    if (response.status === 401) {
      await this.signIn();
      response = await this.send(path, { ...init, body: bodyFactory?.() ?? init.body });
    }
    return response;
  }

  private async json<T>(path: string): Promise<T> {
    const response = await this.call(path);
    if (!response.ok) throw new LoaderError(await errorMessage(response), retryableStatus(response.status), response.status);
    return (await response.json()) as T;
  }

  /** The camera id for a structure and a camera number (1–4). */
  async cameraId(structureId: number, cameraKey: number): Promise<number> {
    const cameras = await this.json<{ id: number; camera_key: number }[]>(`/api/v1/cameras?structure_id=${structureId}`);
    const camera = cameras.find((c) => c.camera_key === cameraKey);
    if (!camera) throw new LoaderError(`У структурной единицы ${structureId} нет камеры ${cameraKey}`, false);
    return camera.id;
  }

  /** Does the camera already have a video with this content? */
  async hasContent(cameraId: number, sha256: string): Promise<{ exists: boolean; video_id: number | null }> {
    return this.json(`/api/v1/upload_check?camera_id=${cameraId}&content_hash=${sha256}`);
  }

  /**
   * Sends a file (streamed from disk) to POST /api/v1/upload; 409 means the server has it already.
   * `fileTime`: the file's modification time here, which the server only offers as a suggestion when the
   * recording's start is unknown (never takes it by itself).
   */
  async upload(cameraId: number, path: string, fileTime?: number, name = basename(path)): Promise<UploadOutcome> {
    const query = new URLSearchParams({ camera_id: String(cameraId), filename: name });
    if (fileTime !== undefined && Number.isFinite(fileTime)) query.set('file_time', String(Math.floor(fileTime)));
    const response = await this.call(`/api/v1/upload?${query}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, long: true }, () =>
      Bun.file(path),
    );
    if (response.status === 409) {
      const text = await response.text().catch(() => '');
      let videoId: number | null = null;
      try {
        videoId = (JSON.parse(text) as { error?: { details?: { video_id?: number } } }).error?.details?.video_id ?? null;
      } catch {}
      return { kind: 'duplicate', video_id: videoId };
    }
    if (!response.ok) throw new LoaderError(await errorMessage(response), retryableStatus(response.status), response.status);
    return { kind: 'uploaded', ...((await response.json()) as UploadReply) };
  }
}
