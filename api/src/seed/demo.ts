import { renderDemoClip } from '@norma/workers/demo-video';
import { registerUser } from '../auth/service';
import type { SessionUser } from '../http/env';
import type { AppDeps } from '../deps';
import {
  DEMO_PASSWORD,
  DEMO_TIME_ZONE,
  demoClip,
  demoLeaves,
  demoTree,
  demoUsers,
  planClips,
  planDays,
  type DemoLeaf,
  type PlannedClip,
  type PlannedSegment,
} from './demo-plan';
import { seedDemoHall } from './demo-hall';
import { seedDemoNorm } from './demo-norm';
import { deleteDemoOrganization, demoStorageKey, hasOrganization, insertDemoOrganization, structureNamed, writeDemoOrganization } from './demo.service';

export { defaultVideoCacheDir } from './demo-plan';

export interface SeedOptions {
  /** Length of each generated clip, seconds (default: config.demoVideoSeconds). */
  videoSeconds?: number;
  /** Encode the videos (true by default); tests that need no video skip it. */
  renderVideos?: boolean;
  /** Identical clips are copied from here instead of being encoded again. */
  videoCacheDir?: string;
  /** Render and register only these clips (all by default): tests that need a few long ones. */
  onlyClips?: (leaf: DemoLeaf, clip: PlannedClip) => boolean;
  /**
   * Seed the exhibition hall on real footage (demo-hall.ts)? By default when the videos are rendered
   * and no clips are picked: tests that pick clips or skip videos get no hall and no tracking job.
   */
  hall?: boolean;
  /** vtest.avi for the hall (DEMO_VTEST_PATH by default); a missing file leaves the hall out with one line in the log. */
  vtestPath?: string;
  log?: (line: string) => void;
}

async function renderAll(deps: AppDeps, days: Map<string, PlannedSegment[]>, clips: PlannedClip[], options: SeedOptions) {
  const keep = options.onlyClips ?? (() => true);
  const jobs = demoLeaves.flatMap((leaf, leafIndex) => clips.filter((clip) => keep(leaf, clip)).map((clip) => ({ leaf, leafIndex, clip })));
  let done = 0;
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const { leaf, leafIndex, clip } = job;
      await renderDemoClip(demoClip(leafIndex, clip, days), deps.storage.pathOf(demoStorageKey(leaf, clip)), options.videoCacheDir);
      done++;
      if (done % 8 === 0) options.log?.(`видео: ${done} готово`);
    }
  };
  // Two encoders at once: the machines this runs on have two cores.
  await Promise.all([worker(), worker()]);
}

/** Seeds the demo organisation when the database has no organisation yet. Returns whether it did. */
export async function seedDemoIfEmpty(deps: AppDeps, options: SeedOptions = {}): Promise<boolean> {
  if (await hasOrganization(deps.db)) return false;
  await seedDemo(deps, options);
  return true;
}

export async function seedDemo(deps: AppDeps, options: SeedOptions = {}): Promise<void> {
  const { db } = deps;
  const videoSeconds = options.videoSeconds ?? deps.config.demoVideoSeconds;
  const renderVideos = options.renderVideos ?? true;
  const log = options.log ?? (() => {});
  const started = Date.now();
  const days = planDays();
  const clips = planClips(videoSeconds);
  if (renderVideos) {
    log(`создаю ${clips.length * demoLeaves.length} демо-видео по ${videoSeconds} с (ffmpeg)…`);
    await renderAll(deps, days, clips, options);
  }

  const org = await insertDemoOrganization(db, Date.now());
  const userIds: Record<string, string> = {};
  try {
    for (const user of demoUsers) {
      const created = await registerUser(
        deps,
        { login: user.login, password: DEMO_PASSWORD, firstName: user.firstName, lastName: user.lastName },
        { organizationId: org.id, role: user.role },
      );
      userIds[user.login] = created.id;
    }
    await writeDemoOrganization(db, deps, org.id, userIds, days, clips, renderVideos, options.onlyClips);
    const as = demoSession(org.id, userIds);
    await seedDemoNorm(db, (await structureNamed(db, org.id, demoLeaves[0]!.name)).id, DEMO_TIME_ZONE, as('analyst'), as('admin'));
    const rootId = (await structureNamed(db, org.id, demoTree.root)).id;
    if (options.hall ?? (renderVideos && !options.onlyClips))
      await seedDemoHall(deps, as('admin'), rootId, { vtestPath: options.vtestPath, videoCacheDir: options.videoCacheDir, log });
  } catch (err) {
    await deleteDemoOrganization(db, org.id, Object.values(userIds));
    throw err;
  }
  log(`демо-организация готова за ${((Date.now() - started) / 1000).toFixed(1)} с`);
}

/** A demo user as a signed-in session, for the seed steps that go through the domains' services. */
function demoSession(organizationId: number, userIds: Record<string, string>) {
  return (login: string): SessionUser => {
    const user = demoUsers.find((u) => u.login === login)!;
    return {
      id: userIds[login]!,
      login,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      organizationId,
      organizationName: '',
      timeZone: DEMO_TIME_ZONE,
    };
  };
}
