import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { apiSessionCookie, startServer, type RunningServer } from './server';

/** What end-to-end tests of video markup read from the demo's API. */
export interface DemoMarkups {
  video_markups: { start_time: number; end_time: number; operation_id: number; author_name: string | null }[];
  version: number;
}

/**
 * The demo (its clips 20 seconds long) and Chromium, started side by side, for end-to-end tests of
 * the demo: `get` reads the API as the analyst (or with another cookie); `stop` ends both.
 */
export async function startDemo() {
  const [server, browser]: [RunningServer, Browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '20' }), launchBrowser()]);
  const stop = async () => {
    await browser.close();
    await server.stop();
  };
  try {
    const cookie = await apiSessionCookie(server.url, 'analyst');
    const get = async <T>(path: string, withCookie = cookie): Promise<T> => {
      const response = await fetch(`${server.url}${path}`, { headers: { cookie: withCookie } });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
    /** The id of the demo's structure of that name. */
    const structureId = (name: string) => {
      const found = structures.find((s) => s.name === name);
      if (!found) throw new Error(`no demo structure «${name}»`);
      return found.id;
    };
    const packingId = structureId('Участок упаковки');
    /** A video without markup on the first page of the packing area's task list (the page the screen opens on). */
    const unmarkedVideo = async () => {
      const tasks = await get<{ elements: { video: { id: number; filename: string } }[] }>(
        `/api/v1/get_tasks?structure_id=${packingId}&option=all&offset=0&limit=30`,
      );
      for (const { video } of tasks.elements) {
        if ((await get<DemoMarkups>(`/api/v1/video_markups/${video.id}`)).video_markups.length === 0) return video;
      }
      throw new Error('no unmarked video on the first page');
    };
    return { server, browser, cookie, get, structureId, packingId, unmarkedVideo, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type Demo = Awaited<ReturnType<typeof startDemo>>;
