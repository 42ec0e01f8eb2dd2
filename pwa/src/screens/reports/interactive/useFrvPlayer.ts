import { useEffect, useMemo, useRef, useState } from 'react';
import { notify } from '../../../status/notifications';
import type { FrvItem, InteractiveFrv, VideoSegment } from '../types';

/** The file and seconds the player shows for an item: the chosen camera's first file, else any camera's. */
export function segmentFor(item: FrvItem, cameraKey: number | null): VideoSegment | null {
  return item.video_segments.find((s) => s.camera_key === cameraKey) ?? item.video_segments[0] ?? null;
}

/** What tells that someone is at the page: a touch, a click, the mouse moving, a key, the wheel. */
const PRESENCE_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel'] as const;

/**
 * False until someone does something on the page (PRESENCE_EVENTS), then true; true from the start
 * unless `waitForPresence`.
 */
function usePresence(waitForPresence: boolean): boolean {
  const [present, setPresent] = useState(!waitForPresence);
  useEffect(() => {
    if (present) return;
    const arrived = () => setPresent(true);
    for (const type of PRESENCE_EVENTS) window.addEventListener(type, arrived, { capture: true, passive: true, once: true });
    return () => {
      for (const type of PRESENCE_EVENTS) window.removeEventListener(type, arrived, { capture: true });
    };
  }, [present]);
  return present;
}

/**
 * The interactive report's player: the chosen camera, the file shown, the selected row and the
 * seek waiting for a file's metadata; the video box's height sizes the table beside it.
 * `guest` (a shared link, often a phone on a slow network): the player asks for its file only once
 * someone is at the page — a touch, a click, the mouse, a key (`preload`: 'none' until then) — so a
 * visitor who only reads the table downloads no video, and the file does not compete with the
 * report's first screen (docs/performance.md, «Отчёт по ссылке: первым же рендером»).
 */
export function useFrvPlayer(frv: InteractiveFrv, { guest = false }: { guest?: boolean } = {}) {
  const preload: 'none' | 'metadata' = usePresence(guest) ? 'metadata' : 'none';
  const cameras = useMemo(() => [...new Set(frv.items.flatMap((i) => i.video_segments.map((s) => s.camera_key)))].sort((a, b) => a - b), [frv]);
  const [cameraKey, setCameraKey] = useState<number | null>(cameras[0] ?? null);
  const [selected, setSelected] = useState<number | null>(null);
  const [video, setVideo] = useState<VideoSegment | null>(() => {
    const first = frv.items.find((i) => i.video_segments.length > 0);
    return first ? segmentFor(first, cameras[0] ?? null) : null;
  });
  const pendingSeek = useRef<number | null>(null);
  const player = useRef<HTMLVideoElement>(null);
  const videoBox = useRef<HTMLDivElement>(null);
  const [videoHeight, setVideoHeight] = useState(360);

  useEffect(() => {
    const box = videoBox.current;
    if (!box) return;
    const observer = new ResizeObserver(() => setVideoHeight(box.getBoundingClientRect().height));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const seekTo = (seconds: number) => {
    const el = player.current;
    if (!el) return;
    el.currentTime = seconds;
    void el.play().catch(() => {});
  };

  const show = (segment: VideoSegment) => {
    if (segment.camera_key !== cameraKey) setCameraKey(segment.camera_key);
    if (video?.video_id === segment.video_id && player.current && player.current.readyState >= 1) {
      setVideo(segment);
      seekTo(segment.video_segment.start);
    } else {
      pendingSeek.current = segment.video_segment.start;
      setVideo(segment);
    }
  };

  const jump = (item: FrvItem) => {
    setSelected(item.id);
    // The player stays in view: on a phone it sits above the table and may have scrolled away.
    const box = videoBox.current?.getBoundingClientRect();
    if (box && (box.top < 0 || box.bottom > window.innerHeight)) videoBox.current!.scrollIntoView({ block: 'start', behavior: 'smooth' });
    const segment = segmentFor(item, cameraKey);
    if (!segment) {
      notify('info', `Операция № ${item.number} «${item.operation_name}» не попала ни на одну запись камер`);
      return;
    }
    show(segment);
  };

  const chooseCamera = (key: number) => {
    setCameraKey(key);
    const item = frv.items.find((i) => i.id === selected) ?? frv.items.find((i) => i.video_segments.some((s) => s.camera_key === key));
    const segment = item?.video_segments.find((s) => s.camera_key === key);
    if (segment) show(segment);
  };

  /** The file's metadata came: the seek asked for before it can happen now. */
  const metadataLoaded = () => {
    if (pendingSeek.current !== null) {
      const seconds = pendingSeek.current;
      pendingSeek.current = null;
      seekTo(seconds);
    }
  };

  return { cameras, cameraKey, selected, video, preload, player, videoBox, videoHeight, jump, chooseCamera, metadataLoaded };
}

export type FrvPlayer = ReturnType<typeof useFrvPlayer>;
