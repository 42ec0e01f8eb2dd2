import { useEffect, useState } from 'react';
import { onMapSaveReplayed } from '../../state/outboxSync';
import { useSession } from '../../state/session-store';
import { MapSession } from './session';

/**
 * The map screen's data for the screen: the session (session.ts) holds the projects, the current
 * project, the catalogue, the busy state and the history; the hook subscribes to it, starts it while
 * the screen is open and hands it the drawings sent from the offline queue.
 */
export function useMapProject() {
  const [session] = useState(() => new MapSession());
  const { projects, project, catalogue, shownBusy, loaded, canUndo, canRedo } = useSession(session);
  useEffect(() => session.start(), [session]);
  // A drawing queued offline reached the server (or was refused) while the screen is open.
  useEffect(() => onMapSaveReplayed(session.replayed), [session]);
  return {
    projects,
    project,
    catalogue,
    busy: shownBusy,
    loaded,
    canUndo,
    canRedo,
    saveDrawn: session.saveDrawn,
    runAlgorithm: session.runAlgorithm,
    clearAll: session.clearAll,
    undo: session.undo,
    redo: session.redo,
    createProject: session.createProject,
    selectProject: session.selectProject,
    deleteProject: session.deleteProject,
    saveGolden: session.saveGolden,
    setCrs: session.setCrs,
  };
}

export type MapProjectState = ReturnType<typeof useMapProject>;
