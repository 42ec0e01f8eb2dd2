import type { TestApp } from './testing';
import { videoWorld, type VideoWorld } from './video-fixtures';

/**
 * The hall the event-analytics API tests share (issue 44): the video world (our hall of four cameras and
 * a rival's), JSON calls as one of its users, a camera calibrated square to square and zones made through
 * the API as the screen makes them. Finished trackings are stored by insertTrackedVideo
 * (event-trackings.ts).
 */
export interface EventReply {
  status: number;
  body: Record<string, unknown>;
}

export interface EventCallInit {
  method?: string;
  body?: unknown;
  /** The session cookie; the administrator's when absent, none (a guest) when null. */
  cookie?: string | null;
  headers?: Record<string, string>;
}

export interface EventHall {
  w: VideoWorld;
  call(path: string, init?: EventCallInit): Promise<EventReply>;
  /** Calibrates the camera: the frame's square of `pixels` from its top-left corner is the plan's square of `metres`. */
  calibrateSquare(cameraId: number, square: { pixels: number; metres: number; frame?: number }): Promise<void>;
  /** A zone of our hall made by the administrator; its id. */
  addZone(zone: { name: string; role: 'zone' | 'stand' | 'safe'; shape: unknown }): Promise<number>;
}

/** The four corners of a square of this side from the origin, clockwise on the frame. */
export const squareCorners = (side: number): [number, number][] => [
  [0, 0],
  [side, 0],
  [side, side],
  [0, side],
];

/** The Russian message of an error reply. */
export const errorMessage = (reply: { body: Record<string, unknown> }) => (reply.body.error as { message: string }).message;

export async function eventHall(t: TestApp): Promise<EventHall> {
  const w = await videoWorld(t);
  const call = async (path: string, init: EventCallInit = {}): Promise<EventReply> => {
    const response = await t.request(path, {
      method: init.method ?? 'GET',
      cookie: init.cookie === null ? undefined : (init.cookie ?? w.cookies.admin),
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  // A set-up step that fails says why: the test would otherwise fail later on something unrelated.
  const must = (reply: EventReply, what: string) => {
    if (reply.status !== 200) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply;
  };
  return {
    w,
    call,
    async calibrateSquare(cameraId, { pixels, metres, frame = 200 }) {
      const body = { frame_width: frame, frame_height: frame, image_points: squareCorners(pixels), plan_points: squareCorners(metres) };
      must(await call(`/api/v1/event/calibration?camera_id=${cameraId}`, { method: 'PUT', body }), 'calibration');
    },
    async addZone(zone) {
      return (must(await call('/api/v1/event/zone', { method: 'POST', body: { structure_id: w.structureId, ...zone } }), 'zone').body as { id: number }).id;
    },
  };
}
