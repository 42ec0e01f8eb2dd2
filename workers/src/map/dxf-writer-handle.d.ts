/** dxf-writer numbers handles from a module-level counter; the DXF export resets it for each file. */
declare module 'dxf-writer/src/Handle.js' {
  const Handle: { seed: number; next(): string; peek(): string };
  export default Handle;
}

/** A TEXT entity (the DXF export adds its text style). */
declare module 'dxf-writer/src/Text.js' {
  export default class Text {
    constructor(x: number, y: number, height: number, rotation: number, value: string, horizontalAlignment?: string, verticalAlignment?: string);
    tags(manager: { push(code: number, value: string | number): void; point(x: number, y: number): void }): void;
  }
}
/** A STYLE table entry: its name and font file. */
declare module 'dxf-writer/src/TextStyle.js' {
  export default class TextStyle {
    constructor(name: string);
    fontFileName: string;
  }
}
