import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy of every answer (PWA files, API, docs page, errors). No inline
 * scripts anywhere: the PWA's only script is its bundle and the docs page loads its start-up code
 * from /api/docs/init.js. Exceptions, each needed by a working feature:
 * - 'wasm-unsafe-eval': core-wasm (report maths) is compiled with WebAssembly.instantiate;
 * - style-src 'unsafe-inline': React `style={…}` attributes, konva and jsPDF/html2canvas set
 *   inline styles; a style cannot run code, so this does not reopen script injection;
 * - blob:/data: for images, media and workers: exported files, frames grabbed from <video>,
 *   fonts embedded in the PDF export, the service worker's own scripts.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'blob:', 'data:'],
  mediaSrc: ["'self'", 'blob:', 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Security headers on every answer. Referrer-Policy is `same-origin`: share keys travel in URLs
 * (`?key=`), so no address of ours may leave for another site, while same-origin requests keep
 * their Referer and — unlike `no-referrer`, which makes browsers send `Origin: null` on writes —
 * their Origin header, which the cross-site check reads. HSTS only when the public address is HTTPS:
 * over plain HTTP it would be ignored at best and lock a mistyped install out at worst.
 */
export function securityHeaders(baseUrl: string): MiddlewareHandler {
  const https = new URL(baseUrl).protocol === 'https:';
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    strictTransportSecurity: https ? 'max-age=31536000; includeSubDomains' : false,
    // Same-origin isolation of the opener only; embedding (COEP) stays off: nothing here needs SharedArrayBuffer.
    crossOriginOpenerPolicy: true,
    crossOriginResourcePolicy: true,
  });
}
