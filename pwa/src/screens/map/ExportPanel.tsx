import { useEffect, useRef, useState } from 'react';
import { api, ApiCallError } from '../../api/client';
import { pollUntil } from '../../api/jobs';
import type { DwgBuildBody } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { POLL_MS } from './session';

type Format = NonNullable<DwgBuildBody['format']>;
type TextEncoding = NonNullable<DwgBuildBody['text_encoding']>;
type State =
  | { kind: 'idle' }
  | { kind: 'building'; format: Format }
  | { kind: 'ready'; url: string; filename: string; prj?: { url: string; filename: string } }
  | { kind: 'failed'; text: string };

const FORMATS: Array<{ format: Format; label: string }> = [
  { format: 'dwg', label: 'Подготовить DWG' },
  { format: 'dxf', label: 'Подготовить DXF' },
];

/** The DWG's text forms (docs/map.md «DWG»): which readers show its labels and layer names right. */
const TEXT_ENCODINGS: Array<{ encoding: TextEncoding; label: string; readers: string }> = [
  { encoding: 'unicode', label: 'Юникод (LibreCAD)', readers: 'коды \\U+ — для LibreCAD и LibreDWG' },
  { encoding: 'cp1251', label: 'Windows-1251 (GDAL)', readers: 'байты Windows-1251 — для GDAL и слоя QGIS' },
];

/**
 * CAD export (spec 02 §4 "Dwg build"): start the build, poll its status every second until
 * 'success', then fetch the link; a spinner meanwhile, then a link named after the real file
 * (output.dwg or output.dxf). A refused format or a failed build shows the server's reason.
 * The DWG's text encoding is chosen beside the buttons; DXF picks its own, so it gets none.
 */
export function ExportPanel() {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [textEncoding, setTextEncoding] = useState<TextEncoding>('unicode');
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  async function build(format: Format) {
    setState({ kind: 'building', format });
    try {
      const body = format === 'dwg' ? { format, text_encoding: textEncoding } : { format };
      const { work_item_id } = await api.post('/api/v1/dwg/build', { body });
      const status = await pollUntil(
        () => api.get('/api/v1/dwg/status', { query: { work_item_id } }),
        (s) => s.status === 'success' || s.status === 'failed',
        { intervalMs: POLL_MS, alive: () => alive.current },
      );
      if (!status) return;
      if (status.status === 'failed') {
        setState({ kind: 'failed', text: `Чертёж не подготовлен: ${status.error ?? 'причина не указана'}` });
        return;
      }
      const { url, filename, prj_url, prj_filename } = await api.get('/api/v1/dwg/output_url', { query: { work_item_id } });
      const prj = prj_url && prj_filename ? { url: prj_url, filename: prj_filename } : undefined;
      if (alive.current) setState({ kind: 'ready', url, filename, prj });
    } catch (error) {
      // The API client has shown it as a message too; here it stays beside the buttons.
      if (alive.current) setState({ kind: 'failed', text: error instanceof ApiCallError ? error.message : String(error) });
    }
  }

  return (
    <section className="map-export" aria-label="Чертёж">
      <h2>Чертёж</h2>
      <label className="map-export-text">
        Текст DWG
        <select value={textEncoding} disabled={state.kind === 'building'} onChange={(e) => setTextEncoding(e.target.value as TextEncoding)}>
          {TEXT_ENCODINGS.map(({ encoding, label }) => (
            <option key={encoding} value={encoding}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {/* The side panel is narrow: the option says the reader, the line below how the text is written. */}
      <p className="muted small map-export-hint">Текст DWG: {TEXT_ENCODINGS.find((t) => t.encoding === textEncoding)!.readers}.</p>
      <div className="map-export-buttons">
        {FORMATS.map(({ format, label }) => (
          <button key={format} type="button" className="button secondary" disabled={state.kind === 'building'} onClick={() => void build(format)}>
            {label}
          </button>
        ))}
      </div>
      {state.kind === 'building' && (
        <p role="status" className="map-export-progress">
          <span className="map-spinner" aria-hidden="true" /> Чертёж {state.format.toUpperCase()} готовится…
        </p>
      )}
      {state.kind === 'ready' && (
        <a className="map-download" href={state.url} download={state.filename} data-testid="map-download">
          Скачать {state.filename}
        </a>
      )}
      {state.kind === 'ready' && state.prj && (
        <a className="map-download" href={state.prj.url} download={state.prj.filename} data-testid="map-download-prj">
          Скачать {state.prj.filename} (система координат)
        </a>
      )}
      {state.kind === 'failed' && <Banner text={state.text} />}
    </section>
  );
}
