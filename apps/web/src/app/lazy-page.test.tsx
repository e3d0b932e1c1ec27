import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { PAGE_LOAD_TIMEOUT_MS, lazyPage } from './lazy-page.tsx';

function Hello() {
  return <p>hello page</p>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('lazyPage', () => {
  it('shows a spinner while the page loads, then the page', async () => {
    let resolve!: (module: { default: typeof Hello }) => void;
    const Page = lazyPage(() => new Promise<{ default: typeof Hello }>((r) => (resolve = r)));
    renderWithProviders(<Page />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading page');
    await act(async () => resolve({ default: Hello }));
    expect(await screen.findByText('hello page')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('gives up after 120000 ms with an error and a retry that loads again', async () => {
    vi.useFakeTimers();
    expect(PAGE_LOAD_TIMEOUT_MS).toBe(120_000);
    const load = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockReturnValueOnce(new Promise(() => {}))
      .mockResolvedValueOnce({ default: Hello });
    const Page = lazyPage(load);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<Page />);

    await act(() => vi.advanceTimersByTimeAsync(PAGE_LOAD_TIMEOUT_MS - 1));
    expect(screen.getByRole('status')).toHaveTextContent('Loading page');
    expect(screen.queryByRole('alert')).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('alert')).toHaveTextContent('This page is taking too long to load');

    vi.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('hello page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('offers a retry when the page code fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Hello });
    const Page = lazyPage(load, { timeoutMs: 1000 });
    renderWithProviders(<Page />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be shown');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('hello page')).toBeInTheDocument();
  });

  it('preload() starts loading before the first render, which then waits on that same import', async () => {
    const load = vi.fn<() => Promise<{ default: typeof Hello }>>().mockResolvedValue({ default: Hello });
    const Page = lazyPage(load);
    Page.preload();
    Page.preload();
    expect(load).toHaveBeenCalledTimes(1);
    renderWithProviders(<Page />);
    expect(await screen.findByText('hello page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a page whose code has arrived renders at once, with no spinner in between', async () => {
    const Page = lazyPage(() => Promise.resolve({ default: Hello }));
    await Page.preload();
    renderWithProviders(<Page />);
    expect(screen.getByText('hello page')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a preload that failed leaves the page its error and a retry that loads again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Hello });
    const Page = lazyPage(load);
    Page.preload();
    renderWithProviders(<Page />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be shown');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('hello page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
