import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { HumansReply, MovableLocation, MovableLocationBody, MovablesReply, Stand, StandLocation, StandLocationBody, VideoMeta } from '../../api/types';
import { useBrowserPeople } from '../../ml/useBrowserPeople';
import { notify } from '../../status/notifications';
import type { FrameRect } from '../models/FrameCanvas';
import type { CapturedFrame } from '../models/FramePlayer';
import { VISION_MESSAGES } from '../../../../workers/src/vision/messages';

const complete = (r: FrameRect | null): r is FrameRect => r !== null && r.x2 > r.x1 && r.y2 > r.y1;

/** The video's stands, objects and their locations on its camera, read again after each change. */
function useLocationLists(videoId: number) {
  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [stands, setStands] = useState<Stand[]>([]);
  const [standLocations, setStandLocations] = useState<StandLocation[]>([]);
  const [movables, setMovables] = useState<MovablesReply['movables']>([]);
  const [movableLocations, setMovableLocations] = useState<MovableLocation[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [standReply, points, objects, boxes] = await Promise.all([
        api.get('/api/v1/all_stands', { query: { video_id: videoId } }),
        api.get('/api/v1/stand_locations', { query: { video_id: videoId } }),
        api.get('/api/v1/movables', { query: { video_id: videoId } }),
        api.get('/api/v1/movable_locations', { query: { video_id: videoId } }),
      ]);
      setStands(standReply.stands);
      setStandLocations(points.stand_locations);
      setMovables(objects.movables);
      setMovableLocations(boxes.movable_locations);
    } catch (err) {
      setLoadError(err instanceof Error ? err.message : String(err));
    }
  }, [videoId]);

  useEffect(() => {
    api
      .get('/api/v1/video_meta/{videoId}', { path: { videoId }, quiet: true })
      .then(setMeta, (err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)));
    void reload();
  }, [videoId, reload]);

  return { meta, stands, standLocations, movables, setMovables, movableLocations, loadError, reload };
}

/**
 * The state of the location marking screen, outside its components: the lists, the captured frame
 * with the people found on it (by the server and in the browser), the drawn rectangle, and the
 * calls that add and remove locations and objects. Errors of the calls are shown by the API client.
 */
export function useStandLocations(videoId: number) {
  const lists = useLocationLists(videoId);
  const { meta, reload, setMovables } = lists;
  const browserPeople = useBrowserPeople();
  const [humans, setHumans] = useState<HumansReply | null>(null);
  const [frame, setFrame] = useState<CapturedFrame | null>(null);
  const [rect, setRect] = useState<FrameRect | null>(null);

  const onFrame = (captured: CapturedFrame) => {
    setFrame(captured);
    setHumans(null);
    browserPeople.reset();
    api.get('/api/v1/humans', { query: { video_id: videoId, second: Number(captured.second.toFixed(2)) } }).then(setHumans, () => {});
  };

  /** Saves a stand's point; an incomplete form is answered with a notice. */
  const addStandLocation = async (standId: string, onlyNow: boolean) => {
    if (!standId) return notify('error', VISION_MESSAGES.chooseStand);
    // A click on the frame is a rectangle of no size: its centre is the point (spec 02: «click a point on the frame»).
    if (!frame || !rect) return notify('error', VISION_MESSAGES.needPoint);
    // Spec 02 §5: the point is the centre of the drawn rectangle, rounded up.
    const body: StandLocationBody = {
      stand_id: Number(standId),
      camera_id: meta!.camera_id,
      x: Math.ceil((rect.x1 + rect.x2) / 2),
      y: Math.ceil((rect.y1 + rect.y2) / 2),
      checkpoint_time: onlyNow ? Number(frame.second.toFixed(2)) : null,
    };
    try {
      await api.post('/api/v1/stand_location', { body });
      setRect(null);
    } catch {
      // Shown by the API client.
    }
    await reload();
  };

  const addMovableLocation = async (movableId: string) => {
    if (!movableId) return notify('error', VISION_MESSAGES.chooseObject);
    if (!frame || !complete(rect)) return notify('error', VISION_MESSAGES.needRectangle);
    const body: MovableLocationBody = { movable_id: Number(movableId), camera_id: meta!.camera_id, ...rect, checkpoint_time: Number(frame.second.toFixed(2)) };
    try {
      await api.post('/api/v1/movable_location', { body });
      setRect(null);
    } catch {
      // Shown by the API client.
    }
    await reload();
  };

  /** Adds a movable object by name; true when it was saved. */
  const addMovable = async (name: string): Promise<boolean> => {
    if (!name.trim()) {
      notify('error', VISION_MESSAGES.needName);
      return false;
    }
    try {
      const reply = await api.post('/api/v1/movables', { body: { changed_movables: [{ name: name.trim() }] } });
      setMovables(reply.movables);
      return true;
    } catch {
      // Shown by the API client.
      return false;
    }
  };

  const remove = async (path: `/api/v1/${'stand' | 'movable'}_location/remove/{id}`, id: number) => {
    try {
      await api.delete(path, { path: { id } });
    } catch {
      // Shown by the API client (404: «Этой локации нет в списке!»).
    }
    await reload();
  };

  return { ...lists, browserPeople, humans, frame, rect, setRect, onFrame, addStandLocation, addMovableLocation, addMovable, remove };
}

export type StandLocationsState = ReturnType<typeof useStandLocations>;
