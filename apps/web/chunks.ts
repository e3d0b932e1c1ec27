import type { CodeSplittingGroup } from 'rolldown';

/**
 * Chunks for first loads: the entry and two chunks, not dozens. Every file is a request, and over HTTP/1.1 a phone
 * waits a round trip for most of them, six at a time: Lighthouse's simulated phone paid about a second for the 41
 * files the monitor list loaded. Each group takes the modules its test matches with everything they import in turn,
 * bar what a group before it took; what no group takes is split as Rolldown splits it.
 */
export const FIRST_LOAD_GROUPS: CodeSplittingGroup[] = [
  // Everything the entry imports statically, in one chunk with it. Left alone, Rolldown cuts the modules the entry
  // shares with lazy chunks into small chunks of their own.
  { name: 'index', tags: ['$initial'], priority: 3 },
  // What every signed-in first load runs: the startup gate with the shell, and the monitor page with both its views
  // (a merchant lands on the list, or on one monitor from an alert's link).
  {
    name: 'signed-in',
    test: /\/src\/(app\/startup-gate|pages\/monitor-(page|list-view|detail-view))\.tsx$/,
    priority: 2,
  },
  // The pages a signed-out visitor arrives on, with what they need beyond the signed-in chunk. They load that chunk
  // too (its shared parts, Mantine's inputs say, are theirs): which is where a sign-in leads, whose page then shows
  // without waiting for its code. The login page is painted before any script runs (prerender.ts), so it costs its
  // first paint nothing.
  { name: 'signed-out', test: /\/src\/pages\/(login|register|oauth)-page\.tsx$/, priority: 1 },
];
