import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderObjectStore, type ObjectStore } from './object-store';
import { startFakeS3, type FakeS3 } from '../../test-support/s3-fake';
import { s3ObjectStore } from './s3-object-store';

/**
 * One contract for every object store: the same cases run against the folder store, against the S3 store on the
 * in-memory fake of the S3 API (s3-fake.ts), and against a real S3-compatible server when NORMA_TEST_S3_ENDPOINT
 * (with NORMA_TEST_S3_BUCKET, NORMA_TEST_S3_ACCESS_KEY_ID, NORMA_TEST_S3_SECRET_ACCESS_KEY) is set.
 */
interface Subject {
  store: ObjectStore;
  cleanup(): Promise<void>;
}

const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251);
const text = (blob: Blob) => blob.text();

function contract(name: string, make: () => Promise<Subject>) {
  describe(`object store contract: ${name}`, () => {
    let subject: Subject;
    let store: ObjectStore;
    beforeAll(async () => {
      subject = await make();
      store = subject.store;
    });
    afterAll(() => subject.cleanup());

    it('put, exists, size, stat, file and remove a text object', async () => {
      await store.put('exports/a/plan.dxf', 'ЧЕРТЁЖ 1');
      expect(await store.exists('exports/a/plan.dxf')).toBe(true);
      expect(await store.size('exports/a/plan.dxf')).toBe(Buffer.byteLength('ЧЕРТЁЖ 1'));
      const info = await store.stat('exports/a/plan.dxf');
      expect(info?.size).toBe(Buffer.byteLength('ЧЕРТЁЖ 1'));
      expect(Math.abs(info!.modifiedAt - Date.now())).toBeLessThan(120_000);
      expect(await text(store.file('exports/a/plan.dxf'))).toBe('ЧЕРТЁЖ 1');
      await store.put('exports/a/plan.dxf', 'второй');
      expect(await text(store.file('exports/a/plan.dxf'))).toBe('второй');
      await store.remove('exports/a/plan.dxf');
      expect(await store.exists('exports/a/plan.dxf')).toBe(false);
      expect(await store.size('exports/a/plan.dxf')).toBeNull();
      expect(await store.stat('exports/a/plan.dxf')).toBeNull();
      await store.remove('exports/a/plan.dxf'); // removing what is gone is fine
    });

    it('reads a byte range without the rest', async () => {
      const data = bytes(10_000);
      await store.put('recordings/s/cam1/range.mp4', data);
      const slice = new Uint8Array(await store.file('recordings/s/cam1/range.mp4').slice(1000, 1100).arrayBuffer());
      expect([...slice]).toEqual([...data.slice(1000, 1100)]);
      const tail = new Uint8Array(await store.file('recordings/s/cam1/range.mp4').slice(9990, 10_000).arrayBuffer());
      expect([...tail]).toEqual([...data.slice(9990)]);
    });

    it('streams an upload chunk by chunk (large enough for a multipart upload) and moves it into place', async () => {
      const chunk = bytes(1024 * 1024, 7);
      const writer = await store.create('recordings/s/cam2/.upload-1.part');
      for (let i = 0; i < 7; i++) await writer.write(chunk);
      await writer.close();
      await writer.close(); // safe twice
      expect(await store.workFiles()).toContain('recordings/s/cam2/.upload-1.part');
      expect(await store.size('recordings/s/cam2/.upload-1.part')).toBe(7 * chunk.length);
      await store.move('recordings/s/cam2/.upload-1.part', 'recordings/s/cam2/big.mp4');
      expect(await store.exists('recordings/s/cam2/.upload-1.part')).toBe(false);
      expect(await store.workFiles()).not.toContain('recordings/s/cam2/.upload-1.part');
      expect(await store.size('recordings/s/cam2/big.mp4')).toBe(7 * chunk.length);
      const hasher = new Bun.CryptoHasher('sha256');
      for await (const part of store.file('recordings/s/cam2/big.mp4').stream()) hasher.update(part);
      const expected = new Bun.CryptoHasher('sha256');
      for (let i = 0; i < 7; i++) expected.update(chunk);
      expect(hasher.digest('hex')).toBe(expected.digest('hex'));
    });

    it('moves a finished object to another key, replacing what is there', async () => {
      await store.put('m/one.txt', 'один');
      await store.put('m/two.txt', 'два');
      await store.move('m/one.txt', 'm/two.txt');
      expect(await store.exists('m/one.txt')).toBe(false);
      expect(await text(store.file('m/two.txt'))).toBe('один');
    });

    it('lists a folder recursively, sorted, without work files and without neighbours sharing the prefix', async () => {
      await store.put('l/cam1/b.mp4', 'bb');
      await store.put('l/cam1/a.mp4', 'a');
      await store.put('l/cam1/deep/c.mp4', 'ccc');
      await store.put('l/cam1/.recorder-tmp.mp4', 'work');
      await store.put('l/cam10/x.mp4', 'x');
      const listed = await store.list('l/cam1');
      expect(listed.map((o) => [o.key, o.size])).toEqual([
        ['l/cam1/a.mp4', 1],
        ['l/cam1/b.mp4', 2],
        ['l/cam1/deep/c.mp4', 3],
      ]);
      expect(listed.every((o) => o.modifiedAt > 0)).toBe(true);
      expect(await store.list('l/none')).toEqual([]);
      expect(await store.workFiles()).toContain('l/cam1/.recorder-tmp.mp4');
    });

    it('gives a local file with the object bytes for tools that need a path, fresh after a change', async () => {
      await store.put('p/clip.bin', 'первая версия');
      expect(readFileSync(await store.local('p/clip.bin'), 'utf8')).toBe('первая версия');
      await store.put('p/clip.bin', 'вторая версия, длиннее');
      expect(readFileSync(await store.local('p/clip.bin'), 'utf8')).toBe('вторая версия, длиннее');
      await expect(store.local('p/missing.bin')).rejects.toThrow();
    });

    it('refuses keys that escape the store', async () => {
      expect(() => store.pathOf('../outside')).toThrow('Недопустимый ключ');
      await expect(store.put('../outside', 'x')).rejects.toThrow('Недопустимый ключ');
    });
  });
}

contract('folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'norma-store-'));
  return { store: folderObjectStore(join(dir, 'objects')), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

let fake: FakeS3;
contract('S3 (in-memory fake of the S3 API)', async () => {
  // A small list page so that the store's paging is exercised.
  fake = startFakeS3('norma-test', 2);
  const dir = mkdtempSync(join(tmpdir(), 'norma-s3cache-'));
  const store = s3ObjectStore({
    bucket: fake.bucket,
    endpoint: fake.endpoint,
    accessKeyId: 'test',
    secretAccessKey: 'test',
    region: 'us-east-1',
    prefix: 'plant1',
    cacheDir: dir,
  });
  return {
    store,
    async cleanup() {
      await fake.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('S3 store on the fake: what reaches the bucket', () => {
  it('keeps objects under the prefix, work files only in the local cache, and used multipart and ranges', async () => {
    const keys = [...fake.objects.keys()];
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith('plant1/'))).toBe(true);
    expect(keys.some((k) => k.split('/').some((part) => part.startsWith('.')))).toBe(false);
    expect(fake.requests).toContain('POST initiate');
    expect(fake.requests).toContain('GET list');
  });
});

const real = process.env.NORMA_TEST_S3_ENDPOINT;
if (real) {
  contract(`S3 (${real})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'norma-s3cache-'));
    const prefix = `norma-test-${crypto.randomUUID()}`;
    const store = s3ObjectStore({
      bucket: process.env.NORMA_TEST_S3_BUCKET ?? 'norma-test',
      endpoint: real,
      accessKeyId: process.env.NORMA_TEST_S3_ACCESS_KEY_ID,
      secretAccessKey: process.env.NORMA_TEST_S3_SECRET_ACCESS_KEY,
      prefix,
      cacheDir: dir,
    });
    return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  });
}
