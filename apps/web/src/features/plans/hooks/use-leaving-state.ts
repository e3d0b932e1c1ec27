import { useEffect, useState } from 'react';

/**
 * State for a button that sends the browser to another site: it stays busy until the page unloads, and is
 * reset when the browser shows this page again from its back-forward cache (the person pressed Back).
 */
export function useLeavingState<T>(idle: T) {
  const [value, setValue] = useState<T>(idle);
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setValue(idle);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [idle]);
  return [value, setValue] as const;
}
