import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { login } from '../../state/login';
import { useSession } from '../../state/session-store';
import { CalculatorSession } from './session';

/**
 * The calculator's state for the screen: the session (session.ts) holds the form, the required
 * measurements, the outputs, the access and the settings; the hook subscribes to it and starts its
 * requests when what they depend on changes (the previous one is cancelled).
 */
export function useCalculator() {
  const { loggedIn, checked } = useSnapshot(login);
  const [session] = useState(() => new CalculatorSession());
  const { form, required, outputs, busy, error, access, settings, settingsVersion } = useSession(session);

  // Asked again when someone signs in or out.
  useEffect(() => (checked ? session.loadAccess() : undefined), [session, checked, loggedIn]);

  const { productionType, less10Sec } = form;
  useEffect(() => session.loadRequired(productionType, less10Sec), [session, productionType, less10Sec]);

  // Any change of the form, of what the user may see, or of the settings asks for the outputs again.
  const { canViewPrivate } = access;
  useEffect(() => session.scheduleOutputs(form, canViewPrivate), [session, form, canViewPrivate, settingsVersion]);

  return { form, set: session.set, required, outputs, busy, error, access, settings, settingsSaved: session.settingsSaved };
}

export type Calculator = ReturnType<typeof useCalculator>;
