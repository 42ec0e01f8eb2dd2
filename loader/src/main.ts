#!/usr/bin/env bun
import { stat } from 'node:fs/promises';
import { NormaClient } from './client';
import { parseOptions, USAGE, UsageError, VERSION } from './options';
import { LoaderError, withRetry } from './retry';
import { unsupportedFiles } from './scan';
import { loadState } from './state';
import { uploadPass, watchFolder } from './uploader';

const log = (line: string) => console.log(`${new Date().toLocaleString('ru-RU')}  ${line}`);

async function main(): Promise<number> {
  let options;
  try {
    options = await parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`Ошибка: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (options === 'version') {
    console.log(VERSION);
    return 0;
  }
  if (
    !(await stat(options.folder)
      .then((s) => s.isDirectory())
      .catch(() => false))
  ) {
    console.error(`Ошибка: папки ${options.folder} нет`);
    return 2;
  }

  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log('Останавливаюсь…');
      stop.abort();
    });
  }
  const retry = options.once ? { attempts: 6, baseDelayMs: 2_000, maxDelayMs: 60_000 } : { attempts: Infinity, baseDelayMs: 2_000, maxDelayMs: 300_000 };
  const client = new NormaClient({ server: options.server, login: options.login, password: options.password });

  try {
    await withRetry(() => client.signIn(), {
      ...retry,
      signal: stop.signal,
      onRetry: (error, attempt, delay) => log(`${error.message}; попытка ${attempt + 1} через ${Math.round(delay / 1000)} с`),
    });
    const cameraId = options.cameraId ?? (await withRetry(() => client.cameraId(options.structureId!, options.cameraKey!), { ...retry, signal: stop.signal }));
    log(`Norma ${options.server}: вход выполнен, камера ${cameraId}, папка ${options.folder}`);
    const skipped = await unsupportedFiles(options.folder);
    if (skipped.length)
      log(`Не отправляются (сервер принимает MP4, MOV, AVI, MKV, WebM, MPEG-TS): ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? '…' : ''}`);
    const context = {
      folder: options.folder,
      cameraId,
      client,
      state: await loadState(options.statePath, log),
      statePath: options.statePath,
      settleMs: options.settleSeconds * 1000,
      retry,
      signal: stop.signal,
      log,
    };
    if (options.once) {
      const result = await uploadPass(context);
      log(`Готово: отправлено ${result.uploaded.length}, уже были на сервере ${result.alreadyOnServer.length}, отклонено ${result.refused.length}`);
      return result.refused.length ? 1 : 0;
    }
    log(`Слежу за папкой (просмотр каждые ${options.intervalSeconds} с). Ctrl+C — остановить.`);
    await watchFolder(context, options.intervalSeconds * 1000);
    return 0;
  } catch (err) {
    if (stop.signal.aborted) return 0;
    console.error(`Ошибка: ${err instanceof Error ? err.message : err}`);
    return err instanceof LoaderError && !err.retryable ? 2 : 1;
  }
}

process.exit(await main());
