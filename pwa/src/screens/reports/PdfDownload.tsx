import { useEffect, useRef, useState, type RefObject } from 'react';
import { buildPdf } from '../../export/pdf';
import { saveBlob, safeFileName } from '../../export/download';
import { notify } from '../../status/notifications';

/**
 * The /pdf variant of a report: once the print layout below has rendered, builds the PDF from
 * it and downloads it; the button downloads it again.
 */
export function PdfDownload({ layout, ready, fileName }: { layout: RefObject<HTMLElement | null>; ready: boolean; fileName: string }) {
  const [state, setState] = useState<
    { kind: 'waiting' } | { kind: 'building' } | { kind: 'done'; pages: number; blob: Blob } | { kind: 'failed'; message: string }
  >({ kind: 'waiting' });
  const started = useRef(false);
  const name = `${safeFileName(fileName)}.pdf`;

  useEffect(() => {
    if (!ready || started.current || !layout.current) return;
    const abort = new AbortController();
    // Let the charts finish their first paint before they are read; leaving the page cancels.
    const timer = setTimeout(() => {
      started.current = true;
      setState({ kind: 'building' });
      buildPdf(layout.current!, fileName, abort.signal).then(
        ({ blob, pages }) => {
          if (abort.signal.aborted) return;
          setState({ kind: 'done', pages, blob });
          saveBlob(blob, name);
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          setState({ kind: 'failed', message });
          notify('error', `Не удалось построить PDF: ${message}`);
        },
      );
    }, 800);
    return () => {
      clearTimeout(timer);
      abort.abort();
      started.current = false;
    };
  }, [ready, layout, fileName, name]);

  return (
    <div className="pdf-status no-print" role="status" data-testid="pdf-status" data-pages={state.kind === 'done' ? state.pages : undefined}>
      {state.kind === 'waiting' && <span>Загружаем отчёт для PDF…</span>}
      {state.kind === 'building' && <span>Готовим PDF…</span>}
      {state.kind === 'done' && (
        <>
          <span>{`PDF готов: ${state.pages} стр.`}</span>
          <button type="button" className="button" onClick={() => saveBlob(state.blob, name)}>
            Скачать PDF
          </button>
        </>
      )}
      {state.kind === 'failed' && <span className="banner banner-error">{`Не удалось построить PDF: ${state.message}`}</span>}
    </div>
  );
}
