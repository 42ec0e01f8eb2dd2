/** dxf-writer numbers handles from a module-level counter; the DXF export resets it for each file. */
declare module 'dxf-writer/src/Handle.js' {
  const Handle: { seed: number; next(): string; peek(): string };
  export default Handle;
}
