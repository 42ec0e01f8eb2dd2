import { useEffect } from 'react';

const DEFAULT_TITLE = 'Norma';
const DEFAULT_DESCRIPTION = 'Norma: фотография рабочего дня, хронометраж и нормирование труда по видео.';

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
export function usePageMeta(title: string, description: string) {
  useEffect(() => {
    document.title = `${title} — Norma`;
    descriptionTag().content = description;
    return () => {
      document.title = DEFAULT_TITLE;
      descriptionTag().content = DEFAULT_DESCRIPTION;
    };
  }, [title, description]);
}
