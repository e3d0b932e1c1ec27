import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { SegmentedChoice } from './segmented-choice.tsx';

const CHOICES = [
  { value: 'day', label: '24 hours' },
  { value: 'week', label: '7 days' },
  { value: 'month', label: '30 days' },
] as const;

function Period() {
  const [value, setValue] = useState<'day' | 'week' | 'month'>('week');
  return (
    <>
      <SegmentedChoice label="Period" choices={CHOICES} value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('SegmentedChoice', () => {
  it('is a radio group whose chosen segment is checked and its one tab stop', async () => {
    renderWithProviders(<Period />);
    const group = screen.getByRole('radiogroup', { name: 'Period' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '7 days' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: '24 hours' })).toHaveAttribute('aria-checked', 'false');
    await userEvent.tab();
    expect(screen.getByRole('radio', { name: '7 days' })).toHaveFocus();
    await userEvent.tab();
    expect(document.body).toHaveFocus();
  });

  it('chooses by click and moves the choice with the arrow keys, Home and End', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Period />);
    await user.click(screen.getByRole('radio', { name: '30 days' }));
    expect(screen.getByRole('status')).toHaveTextContent('month');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('status')).toHaveTextContent('day');
    expect(screen.getByRole('radio', { name: '24 hours' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('status')).toHaveTextContent('month');
    await user.keyboard('{Home}');
    expect(screen.getByRole('status')).toHaveTextContent('day');
    await user.keyboard('{End}');
    expect(screen.getByRole('radio', { name: '30 days' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: '30 days' })).toHaveFocus();
  });
});
