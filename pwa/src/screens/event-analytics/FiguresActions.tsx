import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { EventFigures, EventZone } from '../../api/types';
import { ExportCard } from './ExportCard';
import { ShareCard } from './ShareCard';

/**
 * Under the figures of the hall's screen: «Поделиться» of this window (roles that read reports, as the
 * interactive report) and the CSV and PDF downloads. The hall's name (for the PDF's title and the file
 * names) is read once; until then, or if the read fails (the client shows why), the hall's number stands in.
 */
export function FiguresActions({
  structureId,
  figures,
  zones,
  canShare,
}: {
  structureId: number;
  figures: EventFigures;
  zones: readonly EventZone[];
  canShare: boolean;
}) {
  const [hall, setHall] = useState(`Зал № ${structureId}`);
  useEffect(() => {
    let live = true;
    api.get('/api/v1/structure/{id}', { path: { id: structureId } }).then(
      (structure) => live && setHall(structure.name),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [structureId]);
  return (
    <div className="event-actions">
      {canShare && <ShareCard structureId={structureId} from={figures.from} to={figures.to} />}
      <ExportCard figures={figures} zones={zones} hall={hall} />
    </div>
  );
}
