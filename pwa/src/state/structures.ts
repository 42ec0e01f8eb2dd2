import { proxy } from 'valtio';
import type { Structure } from '../api/types';

/** spec 02 §3 "structures": list, active structure. */
export const structures = proxy({
  list: [] as Structure[],
  active: null as number | null,
});

export interface StructureNode extends Structure {
  children: StructureNode[];
}

/** Builds the tree from parent links; orphans (parent outside the list) become roots. */
export function buildTree(list: Structure[]): StructureNode[] {
  const nodes = new Map<number, StructureNode>(list.map((s) => [s.id, { ...s, children: [] }]));
  const roots: StructureNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_id === null ? undefined : nodes.get(node.parent_id);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (items: StructureNode[]) => {
    items.sort((a, b) => a.name.localeCompare(b.name, 'ru'));
    items.forEach((item) => sort(item.children));
  };
  sort(roots);
  return roots;
}

/** Ids of a structure and all its ancestors, to open the tree down to it. */
export function pathTo(list: Structure[], id: number): number[] {
  const byId = new Map(list.map((s) => [s.id, s]));
  const path: number[] = [];
  for (let current = byId.get(id); current; current = current.parent_id === null ? undefined : byId.get(current.parent_id)) {
    if (path.includes(current.id)) break;
    path.unshift(current.id);
  }
  return path;
}
