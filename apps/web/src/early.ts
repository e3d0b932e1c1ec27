import { requestFirstData } from './app/first-data.ts';

// The early script (apps/web/early-script.ts builds it on its own and index.html runs it before the entry): it asks
// for the page's first data as soon as the page is parsed, while the app's code is still on its way.
requestFirstData(window.location.pathname, window.location.search);
