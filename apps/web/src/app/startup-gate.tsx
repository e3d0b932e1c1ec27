import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AppShell } from '../components/shell/app-shell.tsx';
import { FullPageSpinner } from '../components/page-states.tsx';
import { getUserInfo, peekUserInfo } from '../features/user/api/get-user-info.ts';
import { showErrorToast } from '../lib/api-client.ts';
import { parseQuery, stringifyQuery } from '../lib/query-string.ts';
import {
  forgetReturnPath,
  getToken,
  isAbPricingSet,
  rememberReturnPath,
  removeToken,
  returnPath,
  setUserInfo,
} from '../lib/session.ts';
import { useUserInfo } from '../lib/use-user-info.ts';
import { BASENAME } from './route-table.ts';
import { isPaymentOutcome, isShellOmitted } from './route-match.ts';
import { decideStartup, isElsewhere, nowInSeconds } from './startup.ts';
import { useLogout } from './use-logout.ts';

type Load = { token: string; ok: boolean };

/**
 * Waits before asking again when the user fetch got no answer at all. That says nothing about the session: the
 * network dropped, or the browser stopped the request because the person is leaving the page (a new address
 * typed, a link opened), and a page that removed the token then would sign the next page out.
 */
export const NO_ANSWER_RETRY_MS = [1000, 2000] as const;

/**
 * Fetches the current user once per session token (or takes the answer to the entry's early request, when it has
 * come), storing it as userInfo; a failed fetch removes the token
 * (the spec's startup rule), after two more tries when the failure was no answer at all. The gate stays mounted
 * while the user moves between private pages, so this runs at start-up and after each sign-in, not on every
 * navigation.
 */
function useStartupUser(token: string | undefined): Load | null {
  // The user asked for as the entry ran, when the answer has already come: stored before anything renders that
  // reads it (nothing listens yet), so the first render is the shell and page rather than a spinner.
  const [load, setLoad] = useState<Load | null>(() => {
    const early = token ? peekUserInfo() : undefined;
    if (!token || !early) return null;
    setUserInfo(early);
    return { token, ok: true };
  });
  // The first render already had the user: the mount's fetch is not made.
  const answeredOnMount = useRef(load !== null);
  useEffect(() => {
    if (!token) return;
    if (answeredOnMount.current) {
      answeredOnMount.current = false;
      return;
    }
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = (tries: number) => {
      const last = tries >= NO_ANSWER_RETRY_MS.length;
      // Quiet until the last try, so a dropped request that then succeeds shows no error.
      void getUserInfo(controller.signal, { quiet: !last }).then((result) => {
        if (controller.signal.aborted) return;
        if (!result.ok && result.status === 0 && !last) {
          retry = setTimeout(() => attempt(tries + 1), NO_ANSWER_RETRY_MS[tries]);
          return;
        }
        // An answered failure on a quiet try is shown as the client would have (a 401 needs nothing).
        if (!result.ok && !last && result.status !== 401) showErrorToast(result.message);
        if (result.ok) setUserInfo(result.data);
        else removeToken();
        // What this lets through is the whole shell and page: rendered as a transition, so in slices with the
        // browser's own work between them rather than in one long task (the stored user above re-renders at once,
        // but only this gate's spinner).
        startTransition(() => setLoad({ token, ok: result.ok }));
      });
    };
    attempt(0);
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, [token]);
  return load && load.token === token ? load : null;
}

/**
 * Everything private goes through here: without a token to /login; while the user loads, a full-height
 * spinner; then the spec's startup rules, and the page inside the shell (or bare on the shell-less paths).
 */
export default function StartupGate({ children }: { children: ReactNode }) {
  const token = getToken();
  const signedInOnArrival = useRef(Boolean(token));
  const location = useLocation();
  const load = useStartupUser(token);
  const user = useUserInfo();
  const { logout, loggingOut } = useLogout();
  const query = parseQuery(location.search);

  if (!token || load?.ok === false) {
    // Someone who arrives signed out is coming back to this page; one who just logged out is not.
    if (!signedInOnArrival.current) rememberReturnPath(location.pathname + location.search);
    return (
      <Navigate to={{ pathname: '/login', search: stringifyQuery({ redirect: query.redirect }) }} replace />
    );
  }
  if (!load || !user) return <FullPageSpinner label="Loading your account" />;

  const next = decideStartup({ user, query, now: nowInSeconds(), abPricing: isAbPricingSet() });
  // The payment pages finish choosing a plan. Stripe can send the person back before its webhook has started
  // the plan; rules 2 and 3 would then send them to /pricing and lose the order they are waiting for.
  const choosingPlan = next?.pathname === '/pricing' && isPaymentOutcome(location.pathname);
  if (next && !choosingPlan && isElsewhere(next, location)) {
    return <Navigate to={{ pathname: next.pathname, search: next.search }} replace={next.replace} />;
  }

  // The page opened before signing in is reached: later sign-ins start from the monitors again.
  if (returnPath() === location.pathname + location.search) forgetReturnPath();
  if (isShellOmitted(BASENAME + location.pathname)) return children;
  return (
    <AppShell onLogout={logout} loggingOut={loggingOut}>
      {children}
    </AppShell>
  );
}
