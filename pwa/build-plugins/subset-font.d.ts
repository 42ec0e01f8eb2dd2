/** subset-font ships no types: the one call pwa/vite.config.ts makes. */
declare module 'subset-font' {
  export default function subsetFont(font: Buffer, text: string, options?: { targetFormat?: 'truetype' | 'woff' | 'woff2' | 'sfnt' }): Promise<Buffer>;
}
