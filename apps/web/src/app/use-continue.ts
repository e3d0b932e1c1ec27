import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Session, UserInfo } from '@vigil/contracts';
import { parseQuery, type Query } from '../lib/query-string.ts';
import { isAbPricingSet, returnPath, setUserInfo, startSession } from '../lib/session.ts';
import { decideStartup, homeAfterStartup, nowInSeconds, type Navigation } from './startup.ts';

/**
 * Moves the user on after a step of the start-up flow, keeping the `redirect` parameter:
 * - `afterSignIn(session)` stores the cookies and goes to the page opened before signing in, or the monitors,
 *   where the startup gate fetches the user and applies the rules (onboarding, pricing, a pending binding);
 * - `afterUserChange(user)` stores the updated user and applies the rules at once (onboarding → pricing →
 *   the page opened before signing in, the monitors or /monitor_create).
 */
export function useContinue() {
  const navigate = useNavigate();
  const { search } = useLocation();

  const go = useCallback(
    (target: Navigation) => navigate({ pathname: target.pathname, search: target.search }, { replace: true }),
    [navigate],
  );

  const afterSignIn = useCallback(
    (session: Session) => {
      startSession(session);
      const query = parseQuery(search);
      const redirect = session.redirect || query.redirect;
      void go(homeAfterStartup(redirect ? { redirect } : {}, returnPath()));
    },
    [go, search],
  );

  const afterUserChange = useCallback(
    (user: UserInfo) => {
      setUserInfo(user);
      const { redirect } = parseQuery(search);
      const query: Query = redirect ? { redirect } : {};
      const next = decideStartup({ user, query, now: nowInSeconds(), abPricing: isAbPricingSet() });
      void go(next ?? homeAfterStartup(query, returnPath()));
    },
    [go, search],
  );

  return { afterSignIn, afterUserChange };
}
