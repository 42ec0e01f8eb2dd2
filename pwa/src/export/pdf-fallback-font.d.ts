/** The PDF's fallback faces, cut at build time (pwa/vite.config.ts, pdfFallbackFont): a data: URL of a TTF. */
declare module 'virtual:pdf-fallback-font/*' {
  const dataUrl: string;
  export default dataUrl;
}
