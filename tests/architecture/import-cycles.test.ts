/**
 * No import loops of any kind (issue 40): the files of api/src, workers/src, core-wasm/src and pwa/src
 * import each other without a cycle, type-only imports included (`import type` is erased at run time,
 * but a loop of types is a loop of reading: to know one file you must know the other first).
 * dependency-cruiser reads the imports as scripts/folder-pairs.mjs does, with `tsPreCompilationDeps`
 * so that type imports count; the cycles are the graph's strongly connected components, each printed
 * with one loop through it. Test files count too: nothing imports them, so they only close a loop
 * through a support module of theirs.
 */
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const SCANNED = ['api/src', 'workers/src', 'core-wasm/src', 'pwa/src'];

/**
 * Cycles that are known and being removed elsewhere, each as the sorted files of its component joined
 * by ' ⇄ '. Keep this list empty: an entry here is a debt with a name on it, and an entry whose cycle
 * is gone fails the test until it is removed.
 */
const KNOWN_CYCLES: string[] = [];

/** Every file's resolved imports, as repository paths (a file without imports maps to an empty list). */
async function importGraph(): Promise<Map<string, string[]>> {
  const result = await cruise(
    SCANNED.map((path) => resolve(root, path)),
    {
      baseDir: root,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: ['(^|/)(node_modules|dist|build)/'] },
      combinedDependencies: true,
    },
    { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.d.ts', '.json'] },
    { tsConfig: extractTSConfig(resolve(root, 'tsconfig.json')) },
  );
  const output = result.output;
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not modules');
  const graph = new Map<string, string[]>();
  const path = (file: string) => relative(root, resolve(root, file));
  for (const module of output.modules) {
    const to = module.dependencies.filter((d) => d.resolved && !d.coreModule).map((d) => path(d.resolved));
    graph.set(path(module.source), [...new Set(to)]);
  }
  return graph;
}

/** The strongly connected components with a cycle in them (Tarjan), each as sorted files. */
function cyclicComponents(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) components.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One loop through a component, from its first file back to it (shortest, breadth first): `a → b → a`. */
function loopThrough(graph: Map<string, string[]>, component: string[]): string {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (!inside.has(next) || previous.has(next)) continue;
      previous.set(next, queue[i]);
      if (next === start) {
        const loop = [start];
        for (let at = previous.get(start)!; at !== start; at = previous.get(at)!) loop.unshift(at);
        return [start, ...loop].join(' → ');
      }
      queue.push(next);
    }
  }
  return component.join(' ⇄ ');
}

describe('import graph of api/src, workers/src, core-wasm/src and pwa/src', () => {
  it('has no cycles, type-only imports included (or only the known ones, being removed)', async () => {
    const graph = await importGraph();
    // The cruise did read the workspaces (a wrong path would find no files and no cycles).
    const files = [...graph.keys()];
    expect(SCANNED.filter((base) => !files.some((file) => file.startsWith(`${base}/`)))).toEqual([]);
    const components = cyclicComponents(graph);
    const found = components.map((component) => component.join(' ⇄ '));
    const unknown = components.filter((component) => !KNOWN_CYCLES.includes(component.join(' ⇄ ')));
    const report = unknown.map((component) => `${loopThrough(graph, component)}\n    (${component.length} files: ${component.join(', ')})`);
    expect(report, `import cycles:\n${report.join('\n')}`).toEqual([]);
    expect(
      KNOWN_CYCLES.filter((known) => !found.includes(known)),
      'known cycles that are gone: remove them from KNOWN_CYCLES',
    ).toEqual([]);
  });
});
