import { proxy } from 'valtio';

export interface ProjectShift {
  index: number;
  gaps: number;
  name: string;
  timeStart: string;
  timeFinish: string;
}

/** spec 02 §3 "projectShifts". */
export const projectShifts = proxy({ shifts: [] as ProjectShift[] });

export function loadShifts(shifts: ProjectShift[]) {
  projectShifts.shifts = shifts;
}

/** A new shift has index -1, gaps 0, an empty name and times '00:00:00'. */
export function addShift() {
  projectShifts.shifts.push({ index: -1, gaps: 0, name: '', timeStart: '00:00:00', timeFinish: '00:00:00' });
}

export function removeShift(position: number) {
  projectShifts.shifts.splice(position, 1);
}

/** Gaps fall back to 0 if empty; name, start and finish keep old values if the new one is empty. */
export function editShift(position: number, change: { gaps?: string; name?: string; timeStart?: string; timeFinish?: string }) {
  const shift = projectShifts.shifts[position];
  if (!shift) return;
  if (change.gaps !== undefined) {
    const gaps = Number.parseInt(change.gaps, 10);
    shift.gaps = change.gaps.trim() === '' || Number.isNaN(gaps) ? 0 : gaps;
  }
  if (change.name) shift.name = change.name;
  if (change.timeStart) shift.timeStart = change.timeStart;
  if (change.timeFinish) shift.timeFinish = change.timeFinish;
}
