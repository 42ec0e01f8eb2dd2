import { describe, expect, it } from 'vitest';
import { parseOptions, UsageError } from './options';

const base = ['--server', 'https://norma.example.com', '--login', 'оператор', '--folder', '/rec'];

describe('parseOptions', () => {
  it('reads a camera by structure and number, the password from the environment, and defaults', async () => {
    const options = await parseOptions([...base, '--structure-id', '4', '--camera-key=2'], { NORMA_LOADER_PASSWORD: 'секрет-пароль' });
    expect(options).toEqual({
      server: 'https://norma.example.com',
      login: 'оператор',
      password: 'секрет-пароль',
      folder: '/rec',
      cameraId: null,
      structureId: 4,
      cameraKey: 2,
      statePath: '/rec/.norma-loader-state.json',
      once: false,
      intervalSeconds: 30,
      settleSeconds: 10,
    });
    expect(await parseOptions(['--help'])).toBe('help');
    expect(await parseOptions(['--version'])).toBe('version');
  });

  it('refuses incomplete or wrong arguments with a clear message', async () => {
    const cases: [string[], RegExp][] = [
      [[...base, '--camera-id', '3'], /пароль/],
      [[...base, '--password', 'x', '--structure-id', '4'], /--camera-key/],
      [[...base, '--password', 'x', '--camera-id', '0'], /--camera-id/],
      [[...base, '--password', 'x', '--structure-id', '4', '--camera-key', '5'], /от 1 до 4/],
      [[...base, '--password', 'x', '--camera-id', '3', '--colour', 'red'], /Неизвестный параметр --colour/],
      [['--server', 'norma.example.com', '--login', 'a', '--password', 'x', '--folder', '/r', '--camera-id', '1'], /http/],
      [['cam1.mp4'], /Непонятный аргумент/],
    ];
    for (const [argv, message] of cases) {
      await expect(parseOptions(argv, {}), argv.join(' ')).rejects.toThrow(UsageError);
      await expect(parseOptions(argv, {}), argv.join(' ')).rejects.toThrow(message);
    }
  });
});
