import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One JS chunk of the PWA build, as pwa/vite.config.ts writes it to dist/.vite/chunks.json. */
export interface BuiltChunk {
  file: string;
  isEntry: boolean;
  /** Chunks loaded with this one. */
  imports: string[];
  /** Chunks loaded on demand (import()). */
  dynamicImports: string[];
  /** Module ids from the repository root: pwa/src/…, node_modules/…. */
  modules: string[];
}

export interface ChunkGraph {
  chunks: Map<string, BuiltChunk>;
  /** The entry chunk (index.html's script). */
  entry: string;
}

export function loadChunkGraph(dist: string): ChunkGraph {
  const { chunks } = JSON.parse(readFileSync(join(dist, '.vite', 'chunks.json'), 'utf8')) as { chunks: BuiltChunk[] };
  const entries = chunks.filter((chunk) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry chunk, found ${entries.length}`);
  return { chunks: new Map(chunks.map((chunk) => [chunk.file, chunk])), entry: entries[0]!.file };
}

/** The chunk that holds a module (a screen's source file). */
export function screenChunk(graph: ChunkGraph, module: string): string {
  const found = [...graph.chunks.values()].find((chunk) => chunk.modules.includes(module));
  if (!found) throw new Error(`no chunk holds ${module}`);
  return found.file;
}

/** The chunks that load with the given ones (their static imports, transitively), and their modules. */
export function chunkClosure(graph: ChunkGraph, start: string[], { dynamic = false } = {}) {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const chunk = graph.chunks.get(file);
    if (!chunk) throw new Error(`chunks.json lists no ${file}`);
    queue.push(...chunk.imports, ...(dynamic ? chunk.dynamicImports : []));
  }
  const files = [...seen].sort();
  return { files, modules: files.flatMap((file) => graph.chunks.get(file)!.modules) };
}
