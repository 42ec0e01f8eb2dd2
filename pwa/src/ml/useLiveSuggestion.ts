import { type RefObject, useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { VisionModel } from '../api/types';
import type { BrowserModel, InferenceBackend } from './inference';
import type { BrowserVisionSpec } from './spec';
import { smoothedStep, SUGGESTION_MIN_CONFIDENCE, SuggestionFollower } from './suggestion-follower';

export interface Suggestion {
  /** Index into the model's classes (0: background). */
  classIndex: number;
  operationId: number | null;
  name: string;
  /** The model's confidence: mean probability of the class over its segment so far. */
  probability: number;
  /** The video second the suggestion is for. */
  second: number;
}

export interface LiveSuggestionState {
  status: 'off' | 'loading' | 'ready' | 'error';
  backend: InferenceBackend | null;
  error: string | null;
  /** The settled class when it is sure enough (SUGGESTION_MIN_CONFIDENCE), else null. */
  suggestion: Suggestion | null;
  /** The model is running but not sure enough to suggest (its confidence, 0…1); null otherwise. */
  unsure: number | null;
  /** The model is «не уверена» (issue 43): the work is unlike what it saw of the class it chose, as the applying job tells; no suggestion. */
  uncertain: boolean;
}

/** A suggestion that has settled (held the applying job's minimum segment), from the second its run began. */
export interface SettledChange {
  operationId: number | null;
  name: string;
  onsetSecond: number;
}

const OFF: LiveSuggestionState = { status: 'off', backend: null, error: null, suggestion: null, unsure: null, uncertain: false };

/** The name of the smoothing's extra class (index spec.classes.length), as the applying job calls it. */
const UNCERTAIN_NAME = 'Не уверена';

/** A class of the follower (the model's classes and «не уверена» last) as an operation (null for background and «не уверена») and a name. */
function classOf(spec: BrowserVisionSpec, classIndex: number): { operationId: number | null; name: string } {
  if (classIndex === spec.classes.length) return { operationId: null, name: UNCERTAIN_NAME };
  const cls = spec.classes[classIndex];
  return { operationId: cls?.operationId ?? null, name: cls?.name ?? `Класс ${classIndex}` };
}

/** What the panel shows for the follower's decided step: a suggestion when sure enough, the confidence when not, or «не уверена». */
function shown(spec: BrowserVisionSpec, current: { classIndex: number; confidence: number; second: number } | null) {
  if (current !== null && current.classIndex === spec.classes.length) return { suggestion: null, unsure: null, uncertain: true };
  const sure = current !== null && current.confidence >= SUGGESTION_MIN_CONFIDENCE;
  return {
    suggestion: sure ? { classIndex: current.classIndex, ...classOf(spec, current.classIndex), probability: current.confidence, second: current.second } : null,
    unsure: current !== null && !sure ? current.confidence : null,
    uncertain: false,
  };
}

/**
 * Suggests the current operation during playback with a trained model run in the browser: the
 * model's ONNX file is fetched once, the player's picture is sampled at the model's rate
 * (5 per second of video time) and the worker answers the class of the step about half a second
 * back (the centre of its one-second motion window). The inference code loads only when a model is chosen.
 * The suggestion is the class the applying job's smoothing has settled on (suggestion-follower.ts,
 * the same module as the job), with its confidence; below SUGGESTION_MIN_CONFIDENCE it stays quiet.
 * `onSettled` hears each change of the suggestion once it has settled.
 */
export function useLiveSuggestion(
  videoRef: RefObject<HTMLVideoElement | null>,
  modelId: number | null,
  onSettled?: (change: SettledChange) => void,
): LiveSuggestionState {
  const [state, setState] = useState<LiveSuggestionState>(OFF);
  // The latest callback, without restarting the model when the screen re-renders.
  const settledRef = useRef(onSettled);
  useEffect(() => {
    settledRef.current = onSettled;
  });

  useEffect(() => {
    if (modelId === null) {
      setState(OFF);
      return;
    }
    let model: BrowserModel | null = null;
    let stopped = false;
    let frame = 0;
    setState({ ...OFF, status: 'loading' });
    (async () => {
      try {
        const { BrowserModel } = await import('./inference');
        model = await BrowserModel.open(modelId);
        if (stopped) return model.close();
        const opened = model;
        setState({ ...OFF, status: 'ready', backend: opened.backend });
        const step = 1 / opened.spec.fps;
        const follower = new SuggestionFollower({
          minSteps: Math.max(1, Math.round(opened.spec.smoothing.minSegmentSeconds * opened.spec.fps)),
          hysteresis: opened.spec.smoothing.hysteresis,
          stepSeconds: step,
        });
        const canvas = document.createElement('canvas');
        let context: CanvasRenderingContext2D | null = null;
        let last = -Infinity;
        // Frames are sent on the model's grid without waiting for answers (the worker queues them);
        // only when this many are unanswered is a step skipped, which the worker takes as a gap.
        const MAX_IN_FLIGHT = 4;
        let inFlight = 0;
        const tick = () => {
          frame = requestAnimationFrame(tick);
          const video = videoRef.current;
          if (inFlight >= MAX_IN_FLIGHT || !video || video.readyState < 2 || !video.videoWidth) return;
          const now = video.currentTime;
          // Next step of the model's grid, or a seek backwards.
          if (now >= last && now - last < step - 1e-3) return;
          last = now;
          if (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight) {
            canvas.width = video.videoWidth;
            canvas.height = video.videoHeight;
            context = canvas.getContext('2d', { willReadFrequently: true });
          }
          if (!context) return;
          context.drawImage(video, 0, 0);
          inFlight++;
          opened
            .live(context.getImageData(0, 0, canvas.width, canvas.height), now)
            .then(({ second, probabilities, uncertain }) => {
              if (stopped || !probabilities) return;
              // The same classes the applying job smooths: the model's and «не уверена» last.
              const change = follower.push(second, smoothedStep(probabilities, uncertain));
              if (change) settledRef.current?.({ ...classOf(opened.spec, change.classIndex), onsetSecond: change.onsetSecond });
              // What is shown is the class the applying job's smoothing gives the latest decided step, not a step's argmax.
              const current = shown(opened.spec, follower.decided);
              setState((s) => ({ ...s, ...current }));
            })
            .catch((err: unknown) => {
              if (!stopped) setState((s) => ({ ...s, status: 'error', error: err instanceof Error ? err.message : String(err) }));
            })
            .finally(() => {
              inFlight--;
            });
        };
        frame = requestAnimationFrame(tick);
      } catch (err) {
        if (!stopped) setState({ ...OFF, status: 'error', error: err instanceof Error ? err.message : String(err) });
      }
    })();
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      model?.close();
    };
  }, [videoRef, modelId]);

  return state;
}

/** The camera's models for the suggestion choice, read once `enabled` (quiet: the markup screen works without them). */
export function useCameraModels(videoId: number, enabled: boolean): VisionModel[] {
  const [models, setModels] = useState<VisionModel[]>([]);
  useEffect(() => {
    // Offline there is nothing to run a suggestion with (the model file is not kept on the device).
    if (!enabled || !navigator.onLine) return;
    api.get('/api/v1/models', { query: { video_id: videoId }, quiet: true }).then(
      (reply) => setModels(reply.models),
      () => setModels([]),
    );
  }, [videoId, enabled]);
  return models;
}
