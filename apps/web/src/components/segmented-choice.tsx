import { useRef, type KeyboardEvent } from 'react';
import { Group, UnstyledButton } from '@mantine/core';

export interface Choice<T extends string> {
  value: T;
  label: string;
}

const SIZES = {
  xs: { fz: 'xs', px: 'sm', py: 4 },
  sm: { fz: 'sm', px: 'md', py: 6 },
} as const;

const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * A few mutually exclusive choices as one bar of segments: a radio group as ARIA describes it, whose chosen
 * segment is its one tab stop and whose arrow keys (Home, End) move the choice. In place of Mantine's
 * SegmentedControl, whose sliding indicator measures the segments with a forced layout as the page renders: a
 * quarter of the monitor page's first render on the main thread.
 */
export function SegmentedChoice<T extends string>({
  label,
  choices,
  value,
  onChange,
  size = 'sm',
}: {
  label: string;
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  size?: keyof typeof SIZES;
}) {
  const segments = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent, index: number) {
    const last = choices.length - 1;
    const step = STEPS[event.key];
    const to =
      step !== undefined
        ? (index + step + choices.length) % choices.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? last
            : null;
    if (to === null) return;
    event.preventDefault();
    onChange(choices[to]!.value);
    segments.current[to]?.focus();
  }

  return (
    <Group
      role="radiogroup"
      aria-label={label}
      gap={2}
      wrap="nowrap"
      p={3}
      style={{ background: 'var(--mantine-color-gray-1)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      {choices.map((choice, index) => {
        const checked = choice.value === value;
        return (
          <UnstyledButton
            key={choice.value}
            ref={(segment) => {
              segments.current[index] = segment;
            }}
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            onClick={() => onChange(choice.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
            {...SIZES[size]}
            fw={500}
            ta="center"
            style={{
              flex: 1,
              whiteSpace: 'nowrap',
              borderRadius: 'var(--mantine-radius-sm)',
              color: checked ? 'var(--mantine-color-black)' : 'var(--mantine-color-dimmed)',
              background: checked ? 'var(--mantine-color-white)' : undefined,
              boxShadow: checked ? 'var(--mantine-shadow-xs)' : undefined,
            }}
          >
            {choice.label}
          </UnstyledButton>
        );
      })}
    </Group>
  );
}
