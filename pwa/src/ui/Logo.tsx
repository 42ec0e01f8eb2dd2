import mark from '../../public/icons/favicon.svg?raw';

/**
 * Norma's mark (the favicon's own file), inline in the page. As an <img> an SVG file is a document
 * of its own to the browser, made on the main thread when the file comes: about 45 ms of a cold
 * open on a 4× slower CPU, on every page (issue 47).
 */
export function Logo() {
  return <span className="brand-mark" aria-hidden="true" dangerouslySetInnerHTML={{ __html: mark.trim() }} />;
}
