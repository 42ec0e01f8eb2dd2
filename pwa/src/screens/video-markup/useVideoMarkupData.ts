import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { NamedItem, VideoMeta } from '../../api/types';
import type { VideoMarkupsReply } from '../../offline/markup-rows';
import { markupReads } from './early-reads';
import { afterPaint } from './after-paint';
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

/** How long the screen waits, once its description and lists are in, for the markup to show them with it. */
const MARKUP_WAIT_MS = 400;

interface LoadOptions<Draft> {
  /** Reads the local draft (started with the screen's reads): the screen counts as loaded only with it laid over, so nothing saves or clears a draft earlier. */
  readDraft(): Promise<Draft>;
  /** Lays the draft over the server's markup. */
  applyDraft(markups: VideoMarkupsReply, draft: Draft): void;
  /** The video's length in seconds, when the server knows it. Both callbacks must be stable. */
  onDuration(seconds: number): void;
}

/**
 * Loads what the screen edits: the video's description, its markup (into the session) and the
 * structure's operations, workplaces and employees, and the local draft. All are asked for at once;
 * the screen (and its player) shows as soon as the description and the lists are in, and the markup
 * — at 10,000 rows the largest answer and the most work — follows: `loaded` tells when it is in the
 * session with any local draft laid over it. Where the markup and the draft are in by then (a cold
 * open reads them together), one render shows it all: a screen drawn first without its rows cost a
 * layout and a paint more (issue 47).
 */
export function useVideoMarkupData<Draft>(videoId: number, session: MarkupSession, { readDraft, applyDraft, onDuration }: LoadOptions<Draft>) {
  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [lookups, setLookups] = useState<Lookups>({ operations: [], workplaces: [], employees: [] });
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let cancelled = false;
    // Started with the app when the page opened at this video (early-reads.ts), else now.
    const reads = markupReads(videoId);
    const markupsCall = reads.markups;
    const markupAndDraft = Promise.all([markupsCall, readDraft()]);
    // Awaited below; until then a failure is not an unhandled rejection.
    markupAndDraft.catch(() => {});
    (async () => {
      try {
        const [metaReply, available, workplaces, employees] = await Promise.all([reads.meta, reads.available, reads.workplaces, reads.employees]);
        const inAlready = await Promise.race([markupAndDraft, new Promise<null>((resolve) => setTimeout(() => resolve(null), MARKUP_WAIT_MS))]);
        if (cancelled) return;
        setMeta(metaReply);
        if (metaReply.duration) onDuration(metaReply.duration);
        setLookups({ operations: available.operations, workplaces, employees });
        // Awaited only when not in yet: else the session takes it in this same render.
        const [markups, draft] = inAlready ?? (await markupAndDraft);
        if (cancelled) return;
        session.loadFromServer(markups);
        applyDraft(markups, draft);
        setLoaded(true);
      } catch (err) {
        if (!cancelled) setLoadError(err instanceof Error ? err.message : String(err));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [videoId, session, readDraft, applyDraft, onDuration]);

  return { meta, lookups, loadError, loaded };
}

/**
 * True once `opened` (the markup is in, or failed), its frame painted and the browser idle since, or
 * a second has passed: when the markup screen starts what is not needed to begin coding. The side reads
 * (activities, other cameras, the camera's models) used to start with the screen, and each answer
 * drew the editor again before its rows were there (issue 47: on a 4× slower CPU the rows of a cold
 * open came 170 ms later for them); the recording's date and the statistics panels made the page's
 * first `Intl` formatter (its data loads then: 50–90 ms there).
 */
export function useIdleAfter(opened: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!opened || idle) return;
    // Idle moments come between the tasks of the frame being made too: first its paint.
    let idleCall = 0;
    const painted = afterPaint(() => {
      if (typeof requestIdleCallback === 'function') idleCall = requestIdleCallback(() => setIdle(true), { timeout: 1000 });
      else setIdle(true);
    });
    return () => {
      painted();
      if (idleCall) cancelIdleCallback(idleCall);
    };
  }, [opened, idle]);
  return idle;
}

/** The video's last five activities (side panel), read once `enabled` (useIdleAfter) and again after each save. */
export function useActivities(videoId: number, enabled: boolean) {
  const [activities, setActivities] = useState<Activity[]>([]);
  const reload = useCallback(
    () => api.get('/api/v1/activities', { query: { video_id: videoId, offset: 0, limit: 5 } }).then(setActivities, () => {}),
    [videoId],
  );
  useEffect(() => {
    if (enabled) void reload();
  }, [reload, enabled]);
  return { activities, reload };
}

/** The other cameras' videos at the current second (read once `enabled`), refreshed as the playhead crosses each 5 seconds. */
export function useOtherCameras(videoId: number, playhead: Playhead, startSecond: number, enabled: boolean) {
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
    if (enabled) void load(othersSecond);
  }, [load, othersSecond, enabled]);
  return { others, setOthers, load };
}
