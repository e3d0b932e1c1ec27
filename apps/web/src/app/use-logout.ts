import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../features/auth/api/logout.ts';
import { clearSession, forgetReturnPath } from '../lib/session.ts';

/** Log out: the logout call, then the cookies and stored user are cleared and the app goes to /login. */
export function useLogout() {
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);
  const run = useCallback(async () => {
    setLoggingOut(true);
    // The session ends locally whatever the server answers; the client's toast says if the call failed.
    await logout();
    clearSession();
    setLoggingOut(false);
    forgetReturnPath();
    await navigate('/login', { replace: true });
  }, [navigate]);
  return { logout: () => void run(), loggingOut };
}
