import { Group, Text } from '@mantine/core';

/** Vigil's mark: a watchful "V" under a point of light. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-vigil-7)" />
      <path
        d="M7 10l9 14 9-14"
        fill="none"
        stroke="#fff"
        strokeWidth="3.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="16" cy="10" r="2.4" fill="#fff" />
    </svg>
  );
}

export function Logo({ size = 28 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap">
      <LogoMark size={size} />
      <Text
        component="span"
        fw={800}
        fz={size * 0.72}
        lh={1}
        c="var(--mantine-color-text)"
        style={{ letterSpacing: '-0.02em' }}
      >
        Vigil
      </Text>
    </Group>
  );
}
