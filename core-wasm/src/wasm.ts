/**
 * Loading of the WASM core and zero-copy access to its memory. The generated ESM glue
 * (build/core.js, made by `npm run build -w @norma/core-wasm`) instantiates the module once with
 * top-level await; it works in Bun, Node and Vite builds (target es2022 or later).
 */
import * as core from '../build/core.js';

export { core };

/** Resolves when the core is ready. The glue has loaded it by the time this module runs. */
export function loadCore(): Promise<void> {
  return Promise.resolve();
}

/**
 * Unmanaged blocks of WASM memory for one call. Allocate every block first, then take views:
 * allocation and some core functions (the sorts) may grow memory, which detaches older views,
 * so a view is taken right before it is used and never kept across a core call.
 */
export class Arena {
  private readonly blocks: number[] = [];

  f64(length: number): number {
    return this.alloc(length * 8);
  }

  i32(length: number): number {
    return this.alloc(length * 4);
  }

  viewF64(ptr: number, length: number): Float64Array {
    return new Float64Array(core.memory.buffer, ptr, length);
  }

  viewI32(ptr: number, length: number): Int32Array {
    return new Int32Array(core.memory.buffer, ptr, length);
  }

  release(): void {
    for (const ptr of this.blocks) core.free(ptr);
    this.blocks.length = 0;
  }

  private alloc(bytes: number): number {
    const ptr = core.alloc(bytes);
    this.blocks.push(ptr);
    return ptr;
  }
}

/** Runs `fn` with a fresh arena and frees its blocks afterwards, also on error. */
export function withArena<T>(fn: (arena: Arena) => T): T {
  const arena = new Arena();
  try {
    return fn(arena);
  } finally {
    arena.release();
  }
}
