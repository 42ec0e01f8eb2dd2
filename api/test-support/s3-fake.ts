/**
 * An in-memory fake of the S3 HTTP API on loopback, for tests of the S3 object store where no
 * S3-compatible server is installed. It answers only the calls Bun's S3 client makes, path-style
 * (`/<bucket>/<key>`): PUT object, GET object (with `Range`), HEAD object, DELETE object,
 * ListObjectsV2 (`GET /<bucket>?list-type=2`, with prefix, max-keys and continuation-token), and the
 * multipart upload (POST `?uploads`, PUT `?partNumber=&uploadId=`, POST `?uploadId=`, DELETE `?uploadId=`).
 * Signatures are not verified (a request without an `authorization` header is refused with 403);
 * there is one bucket. `requests` records "METHOD query-kind" lines so tests can see which calls were made.
 */
export interface FakeS3 {
  endpoint: string;
  bucket: string;
  objects: Map<string, { bytes: Uint8Array<ArrayBuffer>; modifiedAt: Date; etag: string }>;
  requests: string[];
  stop(): Promise<void>;
}

const xml = (body: string, status = 200) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, { status, headers: { 'content-type': 'application/xml' } });
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const s3Error = (status: number, code: string, message: string) => xml(`<Error><Code>${code}</Code><Message>${escape(message)}</Message></Error>`, status);

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function startFakeS3(bucket = 'norma-test', pageSize = 1000): FakeS3 {
  const objects: FakeS3['objects'] = new Map();
  const uploads = new Map<string, { key: string; parts: Map<number, Uint8Array> }>();
  const requests: string[] = [];
  const etagOf = (bytes: Uint8Array) => `"${new Bun.CryptoHasher('md5').update(bytes).digest('hex')}"`;

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const [, bucketName = '', ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const q = url.searchParams;
      const kind = q.has('list-type') ? 'list' : q.has('uploads') ? 'initiate' : q.has('partNumber') ? 'part' : q.has('uploadId') ? 'upload' : 'object';
      requests.push(`${request.method} ${kind}`);
      if (!request.headers.get('authorization')) return s3Error(403, 'AccessDenied', 'unsigned request');
      if (decodeURIComponent(bucketName) !== bucket) return s3Error(404, 'NoSuchBucket', bucketName);

      if (kind === 'list' && request.method === 'GET') {
        const prefix = q.get('prefix') ?? '';
        const max = Math.min(Number(q.get('max-keys') ?? pageSize), pageSize);
        const after = q.get('continuation-token') ?? q.get('start-after') ?? '';
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
        const page = keys.slice(0, max);
        const truncated = keys.length > page.length;
        const contents = page
          .map((k) => {
            const o = objects.get(k)!;
            return `<Contents><Key>${escape(k)}</Key><LastModified>${o.modifiedAt.toISOString()}</LastModified><ETag>${escape(o.etag)}</ETag><Size>${o.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join('');
        const next = truncated ? `<NextContinuationToken>${escape(page.at(-1)!)}</NextContinuationToken>` : '';
        return xml(
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${escape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`,
        );
      }
      if (!key) return s3Error(400, 'InvalidRequest', 'no key');

      if (kind === 'initiate' && request.method === 'POST') {
        const uploadId = crypto.randomUUID();
        uploads.set(uploadId, { key, parts: new Map() });
        return xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      if (kind === 'part' && request.method === 'PUT') {
        const upload = uploads.get(q.get('uploadId') ?? '');
        if (!upload) return s3Error(404, 'NoSuchUpload', 'no such upload');
        const bytes = new Uint8Array(await request.arrayBuffer());
        upload.parts.set(Number(q.get('partNumber')), bytes);
        return new Response(null, { headers: { etag: etagOf(bytes) } });
      }
      if (kind === 'upload') {
        const uploadId = q.get('uploadId') ?? '';
        const upload = uploads.get(uploadId);
        if (!upload) return s3Error(404, 'NoSuchUpload', 'no such upload');
        uploads.delete(uploadId);
        if (request.method === 'DELETE') return new Response(null, { status: 204 });
        const numbers = [...(await request.text()).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const bytes = concat(numbers.map((n) => upload.parts.get(n) ?? new Uint8Array()));
        const etag = etagOf(bytes);
        objects.set(upload.key, { bytes, modifiedAt: new Date(), etag });
        return xml(
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escape(upload.key)}</Key><ETag>${escape(etag)}</ETag></CompleteMultipartUploadResult>`,
        );
      }

      switch (request.method) {
        case 'PUT': {
          const bytes = new Uint8Array(await request.arrayBuffer());
          const etag = etagOf(bytes);
          objects.set(key, { bytes, modifiedAt: new Date(), etag });
          return new Response(null, { headers: { etag } });
        }
        case 'DELETE':
          objects.delete(key);
          return new Response(null, { status: 204 });
        case 'GET':
        case 'HEAD': {
          const object = objects.get(key);
          if (!object) return request.method === 'HEAD' ? new Response(null, { status: 404 }) : s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
          const headers = new Headers({
            etag: object.etag,
            'last-modified': object.modifiedAt.toUTCString(),
            'content-type': 'application/octet-stream',
            'accept-ranges': 'bytes',
          });
          const size = object.bytes.length;
          const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('range') ?? '');
          if (range && request.method === 'GET') {
            const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
            const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
            if (start >= size) return s3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
            headers.set('content-range', `bytes ${start}-${end}/${size}`);
            return new Response(object.bytes.slice(start, end + 1), { status: 206, headers });
          }
          headers.set('content-length', String(size));
          return new Response(request.method === 'HEAD' ? null : object.bytes, { headers });
        }
      }
      return s3Error(405, 'MethodNotAllowed', request.method);
    },
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    bucket,
    objects,
    requests,
    stop: () => server.stop(true),
  };
}
