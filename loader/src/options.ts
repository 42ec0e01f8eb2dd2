import { join, resolve } from 'node:path';

export const VERSION = '1.0.0';

export interface LoaderOptions {
  server: string;
  login: string;
  password: string;
  folder: string;
  /** Either a camera id, or a structure id with a camera number 1–4. */
  cameraId: number | null;
  structureId: number | null;
  cameraKey: number | null;
  statePath: string;
  once: boolean;
  intervalSeconds: number;
  settleSeconds: number;
}

export const USAGE = `norma-loader ${VERSION} — загрузчик записей камер Norma

Следит за папкой на компьютере записи и отправляет новые записи (MP4, MOV, AVI, MKV, WebM, MPEG-TS) на сервер Norma, в камеру
структурной единицы. Обрыв связи не страшен: отправка повторяется с нарастающей паузой. Один и тот
же файл (по содержимому, SHA-256) не отправляется дважды — ни после перезапуска, ни после
переименования.

Запуск:
  norma-loader --server https://norma.example.com --login оператор --folder D:\\Записи\\Камера1 \\
               --structure-id 4 --camera-key 1

Параметры:
  --server URL          адрес сервера Norma (или NORMA_LOADER_SERVER)
  --login ЛОГИН         логин пользователя с правом разметки (или NORMA_LOADER_LOGIN)
  --password-file ФАЙЛ  файл с паролем; или переменная NORMA_LOADER_PASSWORD; или --password
  --folder ПАПКА        папка с записями (подпапки тоже просматриваются)
  --structure-id N      структурная единица и
  --camera-key 1..4     номер камеры в ней; или сразу
  --camera-id N         id камеры
  --state ФАЙЛ          файл состояния (по умолчанию ПАПКА/.norma-loader-state.json)
  --interval С          пауза между просмотрами папки, с (по умолчанию 30)
  --settle С            сколько секунд файл не должен меняться, чтобы считаться дописанным (10)
  --once                один проход и выход (для планировщика задач)
  --help, --version
`;

export class UsageError extends Error {}

function positive(value: string | undefined, name: string): number | null {
  if (value === undefined) return null;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new UsageError(`${name}: ожидается целое положительное число`);
  return number;
}

/** Parses `--name value` and `--flag` arguments, with environment variables as defaults. */
export async function parseOptions(argv: string[], env: Record<string, string | undefined> = process.env): Promise<LoaderOptions | 'help' | 'version'> {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`Непонятный аргумент: ${arg}`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (['once', 'help', 'version'].includes(name)) {
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name}: не указано значение`);
    values[name] = value;
  }
  if (flags.has('help')) return 'help';
  if (flags.has('version')) return 'version';
  const known = ['server', 'login', 'password', 'password-file', 'folder', 'camera-id', 'structure-id', 'camera-key', 'state', 'interval', 'settle'];
  for (const name of Object.keys(values)) if (!known.includes(name)) throw new UsageError(`Неизвестный параметр --${name}`);

  const server = values.server ?? env.NORMA_LOADER_SERVER;
  const login = values.login ?? env.NORMA_LOADER_LOGIN;
  let password = values.password ?? env.NORMA_LOADER_PASSWORD;
  if (values['password-file']) password = (await Bun.file(values['password-file']).text()).trim();
  const folder = values.folder;
  if (!server || !login || !password || !folder) throw new UsageError('Нужны --server, --login, пароль и --folder (см. --help)');
  if (!/^https?:\/\//.test(server)) throw new UsageError('--server: адрес должен начинаться с http:// или https://');
  const cameraId = positive(values['camera-id'], '--camera-id');
  const structureId = positive(values['structure-id'], '--structure-id');
  const cameraKey = positive(values['camera-key'], '--camera-key');
  if (cameraKey !== null && cameraKey > 4) throw new UsageError('--camera-key: номер камеры от 1 до 4');
  if (cameraId === null && (structureId === null || cameraKey === null)) {
    throw new UsageError('Укажите камеру: --camera-id или --structure-id вместе с --camera-key');
  }
  const intervalSeconds = positive(values.interval, '--interval') ?? 30;
  const settleSeconds = values.settle === '0' ? 0 : (positive(values.settle, '--settle') ?? 10);
  return {
    server,
    login,
    password,
    folder: resolve(folder),
    cameraId,
    structureId,
    cameraKey,
    statePath: resolve(values.state ?? join(folder, '.norma-loader-state.json')),
    once: flags.has('once'),
    intervalSeconds,
    settleSeconds,
  };
}
