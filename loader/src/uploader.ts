import { stat } from 'node:fs/promises';
import type { NormaClient } from './client';
import { hashFile } from './hash';
import { LoaderError, sleep, withRetry, type RetryOptions } from './retry';
import { scanFolder, type FoundFile } from './scan';
import { saveState, wasDelivered, type LoaderState } from './state';

export interface UploaderContext {
  folder: string;
  cameraId: number;
  client: Pick<NormaClient, 'hasContent' | 'upload'>;
  state: LoaderState;
  statePath: string;
  /** Files changed more recently than this are left for the next scan, ms. */
  settleMs: number;
  retry: Omit<RetryOptions, 'signal'>;
  signal?: AbortSignal;
  log: (line: string) => void;
}

export interface PassResult {
  uploaded: string[];
  alreadyOnServer: string[];
  refused: string[];
}

/** Statuses that refuse one file; others (sign-in, access, no such camera) stop the whole pass. */
const isFileRefusal = (status: number | undefined) => status === 400 || status === 413 || status === 415 || status === 422;

const sameFile = (a: { size: number; modifiedAt: number }, b: FoundFile) => a.size === b.size && a.modifiedAt === b.modifiedAt;

/** The content hash of a file, from the state when the file has not changed since it was read. */
async function contentHash(context: UploaderContext, file: FoundFile): Promise<string | null> {
  const seen = context.state.seen[file.path];
  if (seen && sameFile(seen, file)) return seen.sha256;
  const sha256 = await hashFile(file.path);
  const after = await stat(file.path).catch(() => null);
  // Changed while it was being read: still being written, try on the next scan.
  if (!after || after.size !== file.size || after.mtimeMs !== file.modifiedAt) return null;
  context.state.seen[file.path] = { size: file.size, modifiedAt: file.modifiedAt, sha256 };
  return sha256;
}

/**
 * One pass over the folder: every settled recording whose content was never delivered is checked with the
 * server and sent, retrying with back-off while the network or the server is down. The state is
 * saved after each file, so a stop or a crash loses nothing and sends nothing twice.
 */
export async function uploadPass(context: UploaderContext): Promise<PassResult> {
  const result: PassResult = { uploaded: [], alreadyOnServer: [], refused: [] };
  const files = await scanFolder(context.folder, { settleMs: context.settleMs, ignore: [context.statePath] });
  const retry = { ...context.retry, signal: context.signal };
  for (const file of files) {
    if (context.signal?.aborted) break;
    const sha256 = await contentHash(context, file);
    if (sha256 === null || wasDelivered(context.state, sha256)) continue;
    const refused = context.state.refused[file.path];
    if (refused && sameFile(refused, file)) continue;
    const record = async (how: 'uploaded' | 'on_server', videoId: number | null) => {
      context.state.uploaded[sha256] = { path: file.path, size: file.size, videoId, uploadedAt: new Date().toISOString(), how };
      delete context.state.refused[file.path];
      await saveState(context.statePath, context.state);
    };
    try {
      const onServer = await withRetry(() => context.client.hasContent(context.cameraId, sha256), retry);
      if (onServer.exists) {
        await record('on_server', onServer.video_id);
        result.alreadyOnServer.push(file.name);
        context.log(`${file.name}: уже есть на сервере (видео ${onServer.video_id})`);
        continue;
      }
      context.log(`${file.name}: отправляю (${(file.size / 1024 ** 2).toFixed(1)} МБ)…`);
      const outcome = await withRetry(() => context.client.upload(context.cameraId, file.path, file.modifiedAt), {
        ...retry,
        onRetry: (error, attempt, delay) => context.log(`${file.name}: ${error.message}; попытка ${attempt + 1} через ${Math.round(delay / 1000)} с`),
      });
      if (outcome.kind === 'duplicate') {
        await record('on_server', outcome.video_id);
        result.alreadyOnServer.push(file.name);
        context.log(`${file.name}: сервер уже принял эту запись`);
      } else {
        await record('uploaded', outcome.video_id);
        result.uploaded.push(file.name);
        context.log(`${file.name}: отправлен (видео ${outcome.video_id}, обработка — задача ${outcome.job_id})`);
        if (outcome.start_time === null)
          context.log(`${file.name}: начало записи не определено (в имени нет даты и времени) — укажите его в списке задач разметки`);
      }
    } catch (err) {
      if (context.signal?.aborted) break;
      if (err instanceof LoaderError && !err.retryable && isFileRefusal(err.status)) {
        // Refused for this file (not a video, too large): not retried until the file changes.
        context.state.refused[file.path] = { size: file.size, modifiedAt: file.modifiedAt, reason: err.message };
        await saveState(context.statePath, context.state);
        result.refused.push(file.name);
        context.log(`${file.name}: сервер отказал — ${err.message}`);
        continue;
      }
      throw err;
    }
  }
  await saveState(context.statePath, context.state);
  return result;
}

/** Watches the folder: a pass, a pause, again, until stopped. A pass that fails is retried later. */
export async function watchFolder(context: UploaderContext, intervalMs: number): Promise<void> {
  while (!context.signal?.aborted) {
    try {
      await uploadPass(context);
    } catch (err) {
      if (context.signal?.aborted) break;
      context.log(`Проход не завершён: ${err instanceof Error ? err.message : err}; повторю через ${Math.round(intervalMs / 1000)} с`);
    }
    await sleep(intervalMs, context.signal).catch(() => {});
  }
}
