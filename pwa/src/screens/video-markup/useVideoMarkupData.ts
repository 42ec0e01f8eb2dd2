import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { NamedItem, VideoMeta } from '../../api/types';
import type { VideoMarkupsReply } from '../../offline/markup-rows';
import { markupReads } from './early-reads';
import type { OperationOption } from './OperationRows';
import type { Playhead } from './playhead';
import type { MarkupSession } from './session';
import type { Activity, OtherVideo } from './SidePanels';

export type { VideoMeta };

export interface Lookups {
  operations: OperationOption[];
  workplaces: NamedItem[];
  employees: NamedItem[];
}

interface LoadOptions {
  /** Lays a local draft over the server's markup; awaited before the screen counts as loaded, so nothing saves or clears a draft earlier. */
  restoreDraft(markups: VideoMarkupsReply): Promise<void>;
  /** The video's length in seconds, when the server knows it. Both callbacks must be stable. */
  onDuration(seconds: number): void;
}

/**
 * Loads what the screen edits: the video's description, its markup (into the session) and the
 * structure's operations, workplaces and employees. All are asked for at once; the screen (and its
 * player, which starts fetching the video) shows as soon as the description and the lists are in,
 * and the markup — at 10,000 rows the largest answer and the most work — follows: `loaded` tells
 * when it is in the session with any local draft laid over it.
 */
export function useVideoMarkupData(videoId: number, session: MarkupSession, { restoreDraft, onDuration }: LoadOptions) {
  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [lookups, setLookups] = useState<Lookups>({ operations: [], workplaces: [], employees: [] });
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let cancelled = false;
    // Started with the app when the page opened at this video (early-reads.ts), else now.
    const reads = markupReads(videoId);
    const markupsCall = reads.markups;
    // Awaited below; until then a failure is not an unhandled rejection.
    markupsCall.catch(() => {});
    (async () => {
      try {
        const [metaReply, available, workplaces, employees] = await Promise.all([reads.meta, reads.available, reads.workplaces, reads.employees]);
        if (cancelled) return;
        setMeta(metaReply);
        if (metaReply.duration) onDuration(metaReply.duration);
        setLookups({ operations: available.operations, workplaces, employees });
        const markups = await markupsCall;
        if (cancelled) return;
        session.loadFromServer(markups);
        await restoreDraft(markups);
        if (!cancelled) setLoaded(true);
      } catch (err) {
        if (!cancelled) setLoadError(err instanceof Error ? err.message : String(err));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [videoId, session, restoreDraft, onDuration]);

  return { meta, lookups, loadError, loaded };
}

/** The video's last five activities (side panel), reloaded after each save. */
export function useActivities(videoId: number) {
  const [activities, setActivities] = useState<Activity[]>([]);
  const reload = useCallback(
    () => api.get('/api/v1/activities', { query: { video_id: videoId, offset: 0, limit: 5 } }).then(setActivities, () => {}),
    [videoId],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  return { activities, reload };
}

/** The other cameras' videos at the current second, refreshed as the playhead crosses each 5 seconds. */
export function useOtherCameras(videoId: number, playhead: Playhead, startSecond: number) {
  const [others, setOthers] = useState<OtherVideo[] | null>(null);
  const [currentSecond, setCurrentSecond] = useState(startSecond);
  // Current second refreshes every 1 second (spec 01 §9).
  useEffect(() => {
    const timer = setInterval(() => setCurrentSecond(Math.floor(playhead.time)), 1000);
    return () => clearInterval(timer);
  }, [playhead]);
  const load = useCallback(
    (second: number) => api.get('/api/v1/other_videos', { query: { video_id: videoId, current_second: second } }).then(setOthers, () => setOthers([])),
    [videoId],
  );
  const othersSecond = Math.floor(currentSecond / 5) * 5;
  useEffect(() => {
    void load(othersSecond);
  }, [load, othersSecond]);
  return { others, setOthers, load };
}
