import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { lazyDialog } from './lazy-dialog.tsx';

interface NoteProps {
  opened: boolean;
  onClose: () => void;
}

function NoteDialog({ opened, onClose }: NoteProps) {
  return opened ? (
    <div role="dialog" aria-label="A note">
      <button onClick={onClose}>Close</button>
    </div>
  ) : null;
}

function makeDialog(load: () => Promise<typeof NoteDialog>) {
  const Note = lazyDialog<NoteProps>(load, {
    isOpen: (props) => props.opened,
    close: (props) => props.onClose(),
    what: 'note dialog',
  });
  function Page() {
    const [opened, setOpened] = useState(false);
    return (
      <>
        <button onPointerEnter={Note.preload} onClick={() => setOpened(true)}>
          Open
        </button>
        <p data-testid="state">{opened ? 'open' : 'closed'}</p>
        <Note opened={opened} onClose={() => setOpened(false)} />
      </>
    );
  }
  return Page;
}

describe('lazyDialog', () => {
  it('fetches its code only when first opened, then shows it open, and later openings at once', async () => {
    const load = vi.fn(() => Promise.resolve(NoteDialog));
    const Page = makeDialog(load);
    const user = userEvent.setup();
    renderWithProviders(<Page />);
    expect(load).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'A note' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('dialog', { name: 'A note' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts fetching when a pointer comes to what opens it', async () => {
    const load = vi.fn(() => Promise.resolve(NoteDialog));
    const Page = makeDialog(load);
    const user = userEvent.setup();
    renderWithProviders(<Page />);
    await user.hover(screen.getByRole('button', { name: 'Open' }));
    expect(load).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'A note' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('closes with a toast when its code does not come, and tries again at the next opening', async () => {
    const load = vi
      .fn<() => Promise<typeof NoteDialog>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(NoteDialog);
    const Page = makeDialog(load);
    const user = userEvent.setup();
    renderWithProviders(<Page />);

    // From the keyboard, so no pointer comes to the button first (a preload that fails is only forgotten).
    screen.getByRole('button', { name: 'Open' }).focus();
    await user.keyboard('{Enter}');
    expect(
      await screen.findByText('The note dialog did not load. Check your connection and try again.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('closed'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'A note' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
