import { useEffect } from 'react';

/** What index.html says before a page sets its own (kept in step with pwa/index.html). */
export const DEFAULT_TITLE = 'Norma';
export const DEFAULT_DESCRIPTION = 'Norma: фотография рабочего дня, хронометраж и нормирование труда по видео.';

/** The document title of a page with its own title. */
export const pageTitle = (title: string) => `${title} — Norma`;

function descriptionTag(): HTMLMetaElement {
  let tag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = 'description';
    document.head.appendChild(tag);
  }
  return tag;
}

/**
 * A page's title and meta description (what a search engine and a browser tab show). The
 * defaults of index.html come back when the page is left, so a screen without its own keeps none.
 */
/** Back to index.html's defaults: src/main.tsx, when the landing page prerendered there is not shown. */
export function resetPageMeta() {
  document.title = DEFAULT_TITLE;
  descriptionTag().content = DEFAULT_DESCRIPTION;
}

export function usePageMeta(title: string, description: string) {
  useEffect(() => {
    document.title = pageTitle(title);
    descriptionTag().content = description;
    return resetPageMeta;
  }, [title, description]);
}
