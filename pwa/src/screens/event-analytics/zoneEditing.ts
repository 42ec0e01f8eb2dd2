import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { EventZone, EventZoneUpdateBody } from '../../api/types';
import type { EventAnalytics } from '../../state/eventAnalytics';

/*
 * Editing an existing zone of the hall (issue 44, docs/event-analytics.md «Экран», «Зоны»): its name,
 * role, stand and shape go to PUT /api/v1/event/zone/{id} (the API checks the shape, the stand and the
 * role's access), then the zones are read again.
 */

type Point = [number, number];
export type ZoneShape = EventZone['shape'];
export interface StandChoice {
  id: number;
  name: string;
}

/** What the zone form holds: text fields as typed, the polygon's points or the circle's centre as placed. */
export interface ZoneDraft {
  name: string;
  role: EventZone['role'];
  standId: string;
  kind: 'circle' | 'polygon';
  centre: [string, string];
  radius: string;
  points: Point[];
}

export const emptyDraft = (): ZoneDraft => ({ name: '', role: 'zone', standId: '', kind: 'circle', centre: ['', ''], radius: '1.5', points: [] });

/** The form of an existing zone: its fields and shape as they are saved. */
export function draftOf(zone: EventZone): ZoneDraft {
  const shape = zone.shape;
  return {
    name: zone.name,
    role: zone.role,
    standId: zone.stand_id === null ? '' : String(zone.stand_id),
    kind: shape.type,
    centre: shape.type === 'circle' ? [String(shape.center[0]), String(shape.center[1])] : ['', ''],
    radius: shape.type === 'circle' ? String(shape.radius) : '1.5',
    points: shape.type === 'polygon' ? shape.points.map((p) => [p[0], p[1]] as Point) : [],
  };
}

const num = (text: string) => (text.trim() === '' ? NaN : Number(text.replace(',', '.')));

/** The draft as the API's zone body, or the Russian reason it is not one yet. */
export function zoneBody(draft: ZoneDraft): { body: EventZoneUpdateBody } | { problem: string } {
  let shape: ZoneShape;
  if (draft.kind === 'circle') {
    const [x, y, r] = [num(draft.centre[0]), num(draft.centre[1]), num(draft.radius)];
    if (![x, y, r].every(Number.isFinite)) return { problem: 'Введите центр круга и радиус числами, в метрах' };
    shape = { type: 'circle', center: [x, y], radius: r };
  } else {
    if (draft.points.length < 3) return { problem: 'Нажмите на плане не меньше трёх точек многоугольника' };
    shape = { type: 'polygon', points: draft.points };
  }
  const standId = draft.role === 'stand' && draft.standId !== '' ? Number(draft.standId) : null;
  return { body: { name: draft.name, role: draft.role, stand_id: standId, shape } };
}

/** Saves an existing zone through the API and reads the hall's zones again; the API's message on a refusal. */
export async function saveZone(store: EventAnalytics, zoneId: number, body: EventZoneUpdateBody): Promise<string | null> {
  try {
    // The form shows the refusal beside its button, so the client's own toast is not needed.
    await api.put('/api/v1/event/zone/{id}', { path: { id: zoneId }, body, quiet: true });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  await store.reloadZones();
  return null;
}

/** The organisation's stands (kind «Стенд»), for the stand of a stand's zone; empty until read, or if the read fails (shown by the client). */
export function useStands(structureId: number, enabled: boolean): StandChoice[] {
  const [stands, setStands] = useState<StandChoice[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api.get('/api/v1/all_stands', { query: { structure_id: structureId } }).then(
      (reply) => live && setStands(reply.stands.filter((s) => s.kind === 'stand').map((s) => ({ id: s.id, name: s.name }))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [structureId, enabled]);
  return stands;
}
