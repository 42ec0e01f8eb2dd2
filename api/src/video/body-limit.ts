import { errorBody } from '../http/errors';

/** Bodies of every call but the upload are JSON or forms: this is plenty (map drawings included). */
export const OTHER_BODY_MAX_BYTES = 64 * 1024 * 1024;
export const UPLOAD_PATH = '/api/v1/upload';

/** "4 ГиБ", "512 МиБ", "10 КиБ" */
export function humanBytes(bytes: number): string {
  const units = [
    ['ГиБ', 1024 ** 3],
    ['МиБ', 1024 ** 2],
    ['КиБ', 1024],
  ] as const;
  for (const [unit, size] of units) if (bytes >= size) return `${Math.round((bytes / size) * 10) / 10} ${unit}`;
  return `${bytes} Б`;
}

export function payloadTooLarge(maxBytes: number, what = 'Файл'): Response {
  return Response.json(errorBody('payload_too_large', `${what} больше допустимого размера (${humanBytes(maxBytes)})`), { status: 413 });
}

function limited(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new Error(`Тело запроса больше ${humanBytes(maxBytes)}`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The server's request-size policy, applied before the app (Bun's own limit is lifted so that
 * a refusal is always our JSON 413): a declared length over the limit is refused at once —
 * `uploadMaxBytes` for POST /api/v1/upload, 64 MiB for everything else; a body without a length
 * is passed on as a stream, cut off past 64 MiB except for the upload, which counts its own bytes.
 * Returns a response to send instead, or the body to hand on.
 */
export function checkRequestSize(request: Request, uploadMaxBytes: number): { refuse: Response } | { body: ReadableStream<Uint8Array> | null } {
  const isUpload = new URL(request.url).pathname === UPLOAD_PATH;
  const maxBytes = isUpload ? uploadMaxBytes : OTHER_BODY_MAX_BYTES;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return { refuse: payloadTooLarge(maxBytes, isUpload ? 'Файл' : 'Тело запроса') };
  if (!request.body || declared !== null || isUpload) return { body: request.body };
  return { body: limited(request.body, maxBytes) };
}
