import { describe, expect, it } from 'vitest';
import { checkRequestSize, humanBytes, OTHER_BODY_MAX_BYTES } from './body-limit';

const post = (path: string, headers: Record<string, string>, body: BodyInit | null = 'x') =>
  new Request(`http://localhost${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

const chunked = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let sent = 0; sent < bytes; sent += 1 << 20) controller.enqueue(new Uint8Array(1 << 20));
      controller.close();
    },
  });

describe('checkRequestSize', () => {
  it('refuses a declared length over the limit with our JSON 413: the upload limit for uploads, 64 MiB otherwise', async () => {
    const upload = checkRequestSize(post('/api/v1/upload?camera_id=1', { 'content-length': '20001' }), 20_000);
    expect('refuse' in upload && upload.refuse.status).toBe(413);
    expect('refuse' in upload && (await upload.refuse.json()).error).toEqual({
      code: 'payload_too_large',
      message: 'Файл больше допустимого размера (19.5 КиБ)',
    });
    expect('body' in checkRequestSize(post('/api/v1/upload', { 'content-length': '20000' }), 20_000)).toBe(true);
    const login = checkRequestSize(post('/api/v1/login', { 'content-length': String(OTHER_BODY_MAX_BYTES + 1) }), 4 * 1024 ** 3);
    expect('refuse' in login && (await login.refuse.json()).error.message).toBe('Тело запроса больше допустимого размера (64 МиБ)');
  });

  it('passes bodies without a length on as streams, cutting off all but the upload past 64 MiB', async () => {
    const other = checkRequestSize(post('/api/v1/login', {}, chunked(OTHER_BODY_MAX_BYTES + (2 << 20))), 4 * 1024 ** 3);
    expect('body' in other).toBe(true);
    await expect(new Response((other as { body: ReadableStream }).body).arrayBuffer()).rejects.toThrow('больше 64 МиБ');
    const upload = post('/api/v1/upload', {}, chunked(3 << 20));
    const passed = checkRequestSize(upload, 1 << 20);
    expect((passed as { body: ReadableStream }).body).toBe(upload.body);
    expect(humanBytes(4 * 1024 ** 3)).toBe('4 ГиБ');
    expect(humanBytes(512)).toBe('512 Б');
  });
});
