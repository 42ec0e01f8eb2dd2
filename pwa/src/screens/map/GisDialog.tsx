import { useEffect, useRef, useState } from 'react';
import { api, ApiCallError } from '../../api/client';
import type { MapFeatureCollection } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { MENU_WIDTH_PX, serverForm } from './popups';

const TITLES = { coords: 'Полигон по координатам', code: 'Полигон по кадастровому номеру' } as const;

/**
 * A polygon by coordinates or by cadastral number (spec 02 §7 "GIS"): the server's form
 * (POST /api/v1/gis/html_menu), then GET /api/v1/gis/{coords|code}?params= with its rows. The
 * polygons found go to the drawing, where their property popup decides whether they stay.
 */
export function GisDialog({ type, onBuilt, onClose }: { type: 'coords' | 'code'; onBuilt(collection: MapFeatureCollection): void; onClose(): void }) {
  const holder = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const built = useRef(onBuilt);
  useEffect(() => {
    built.current = onBuilt;
  }, [onBuilt]);

  useEffect(() => {
    let alive = true;
    void api
      .post('/api/v1/gis/html_menu', { body: { type } })
      .then((menu) => {
        if (!alive || !holder.current) return;
        const form = serverForm(menu.html_menu, async (values) => {
          setError(null);
          try {
            const found = await api.get(`/api/v1/gis/${type}`, { query: { params: String(values.params ?? '') } });
            built.current(found);
          } catch (e) {
            // Shown as a message by the API client too; here it stays beside the rows to fix.
            setError(e instanceof ApiCallError ? e.message : String(e));
          }
        });
        holder.current.replaceChildren(form);
        form.querySelector('textarea')?.focus();
      })
      .catch(() => onClose());
    return () => {
      alive = false;
    };
  }, [type, onClose]);

  return (
    <div className="map-dialog" role="dialog" aria-label={TITLES[type]} style={{ width: MENU_WIDTH_PX }}>
      <button type="button" className="map-dialog-close" aria-label="Закрыть" onClick={onClose}>
        ×
      </button>
      <div ref={holder} />
      <Banner text={error} />
    </div>
  );
}
