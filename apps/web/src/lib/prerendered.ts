import { createContext, useContext } from 'react';

/**
 * Pages the build renders to HTML ahead of time (apps/web/prerender.ts), each served as `<name>.html` by the
 * server in place of index.html (apps/server/src/web-app.ts), keyed by their path below /app.
 */
export const PRERENDERED_PAGES = { login: '/login' } as const;
export type PrerenderedPage = keyof typeof PRERENDERED_PAGES;

/** True while the build renders a page to HTML: no script runs in that markup, so nothing in it may act. */
export const PrerenderingContext = createContext(false);

export function usePrerendering(): boolean {
  return useContext(PrerenderingContext);
}

/** The page the server sent already rendered into `root` (its `data-prerendered`), if it is the one at `path`. */
export function prerenderedPage(root: HTMLElement, path: string): PrerenderedPage | null {
  const page = root.dataset.prerendered;
  if (!page || !Object.hasOwn(PRERENDERED_PAGES, page)) return null;
  return PRERENDERED_PAGES[page as PrerenderedPage] === path ? (page as PrerenderedPage) : null;
}

/** Marks a prerendered form's submit button, which is a plain button there (see `usePrerendering`). */
export const PRERENDERED_SUBMIT = 'data-prerendered-submit';

/**
 * Names a prerendered button outside the form (Sign in with Google): pressed before the page is live, its live
 * button is pressed once it is (`takePrerenderedPress`).
 */
export const PRERENDERED_PRESS = 'data-prerendered-press';

// The last such button pressed, kept past the inputs' hand-over: the live button may mount after the form.
let pressed: string | null = null;

/** Whether the prerendered button `name` was pressed before the page was live; true once, for its live button. */
export function takePrerenderedPress(name: string): boolean {
  if (pressed !== name) return false;
  pressed = null;
  return true;
}

interface Adopted {
  inputs: Map<string, HTMLInputElement>;
  focused: HTMLInputElement | null;
  /** The form a person asked to submit (its button clicked, Enter pressed in a field) before it was live. */
  submitted: HTMLFormElement | null;
  stop: () => void;
}

let adopted: Adopted | null = null;

/**
 * Keeps hold of the prerendered page's named inputs, of which one has focus and of a submission asked for,
 * until React has rendered the live page in their place: what a person typed (or their password manager filled
 * in) while the scripts were arriving carries over, and a Sign in pressed meanwhile happens once the form is
 * live. An input keeps its value once React has taken it out of the document.
 */
export function adoptPrerenderedInputs(root: HTMLElement): void {
  const inputs = new Map<string, HTMLInputElement>();
  for (const input of root.querySelectorAll<HTMLInputElement>('input[name]')) inputs.set(input.name, input);
  const active = document.activeElement;
  const state: Adopted = {
    inputs,
    focused: active instanceof HTMLInputElement && root.contains(active) ? active : null,
    submitted: null,
    stop: () => {
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('focusout', onFocusOut);
      root.removeEventListener('click', onClick);
      root.removeEventListener('keydown', onKeyDown);
    },
  };
  function onClick(event: MouseEvent) {
    const target = event.target instanceof Element ? event.target : null;
    const button = target?.closest(`[${PRERENDERED_SUBMIT}]`);
    if (button instanceof HTMLButtonElement && button.form) state.submitted = button.form;
    pressed = target?.closest(`[${PRERENDERED_PRESS}]`)?.getAttribute(PRERENDERED_PRESS) ?? pressed;
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.form) {
      state.submitted = event.target.form;
    }
  }
  function onFocusIn(event: FocusEvent) {
    if (event.target instanceof HTMLInputElement) state.focused = event.target;
  }
  // A person leaving a field clears the focus once the event is done. React taking the markup away fires the
  // same event from inside its commit, and the microtask waits until that commit (and the live form's layout
  // effect, which restores the focus) has run.
  function onFocusOut(event: FocusEvent) {
    const left = event.target;
    queueMicrotask(() => {
      if (state.focused === left) state.focused = null;
    });
  }
  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('focusout', onFocusOut);
  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKeyDown);
  adopted = state;
}

/** What the prerendered input `name` holds now, if the page was prerendered and not yet taken over. */
export function prerenderedValue(name: string): string | undefined {
  return adopted?.inputs.get(name)?.value;
}

/**
 * Hands the prerendered inputs over to the live `form` (from its layout effect, so before the browser paints):
 * each value that differs from the live field's goes through `setValue`, the focus and the cursor move to the
 * live field that replaced the focused one, and a submission asked for meanwhile is made, once, with those
 * values. Done once; later calls do nothing.
 */
export function takeOverPrerenderedInputs(
  form: HTMLFormElement | null,
  setValue: (name: string, value: string) => void,
): void {
  const state = adopted;
  if (!state || !form) return;
  adopted = null;
  state.stop();
  const submitted = [...state.inputs].some(
    ([name, input]) => input.form === state.submitted && form.elements.namedItem(name) !== null,
  );
  for (const [name, input] of state.inputs) {
    const live = form.elements.namedItem(name);
    if (!(live instanceof HTMLInputElement)) continue;
    if (live.value !== input.value) setValue(name, input.value);
    if (state.focused !== input) continue;
    const { selectionStart, selectionEnd } = input;
    live.focus();
    // An email field has no selection to copy (`selectionStart` is null there). Elsewhere the value set above
    // renders before this microtask runs, and the cursor goes back where it was.
    if (selectionStart === null) continue;
    queueMicrotask(() => live.setSelectionRange(selectionStart, selectionEnd));
  }
  // The values set above have rendered by the time this runs.
  if (submitted) queueMicrotask(() => form.requestSubmit());
}
