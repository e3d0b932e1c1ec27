import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { forgetEarlyRequests } from '../lib/early-requests.ts';

// A find waits up to 5 s, not the default 1 s: in `npm test` these files run beside the server's on two cores, and a
// form page's lazy chunks and several answers in turn have taken longer than a second to show there.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs; happy-dom lacks some of them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
}

// Components that swap layouts by width (tables on a desktop, cards on a phone) render as on a desktop,
// unless a test sets another width with window.happyDOM.setViewport.
const DESKTOP = { width: 1440, height: 900 };
const happyDOM = (window as unknown as { happyDOM?: { setViewport(size: typeof DESKTOP): void } }).happyDOM;
happyDOM?.setViewport(DESKTOP);

afterEach(() => {
  happyDOM?.setViewport(DESKTOP);
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  forgetEarlyRequests();
  for (const name of Object.keys(Object.fromEntries(document.cookie.split('; ').map((c) => c.split('='))))) {
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});
