import type { ReactNode } from 'react';
import { Checkbox, type CheckboxProps, Paper, Pill, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/page-states.tsx';

/*
 * The parts the pickers of a service's section share (a shop's products, a Google Ads account's campaigns and
 * ads, a Meta ad account's ad sets): how many are chosen as removable chips, a search field, one checkbox
 * card per item, and what shows while the list loads, fails or is empty.
 */

/** The choice of a picker under its list's fieldset: its legend, and a line of help under it. */
export function ChoiceFieldset({
  legend,
  hint,
  children,
}: {
  legend: string;
  hint: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm" component="fieldset" m={0} p={0} style={{ border: 0, minWidth: 0 }}>
      <Text component="legend" fw={600} size="sm" p={0}>
        {legend}
      </Text>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
      {children}
    </Stack>
  );
}

export interface ChosenChip {
  key: string;
  text: string;
  /** The remove button's accessible name ("Remove Blue hoodie"). */
  removeLabel: string;
  onRemove: () => void;
}

/**
 * What a picker holds: how many are chosen, each as a removable chip, the limit once reached, and the field's
 * error.
 */
export function ChosenChips({
  summary,
  label,
  chips,
  limitNote,
  error,
}: {
  summary: string;
  /** The chips' list's accessible name ("Chosen products"). */
  label: string;
  chips: ChosenChip[];
  /** Shown once the limit is reached. */
  limitNote: ReactNode;
  error?: string | undefined;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600} aria-live="polite">
        {summary}
      </Text>
      {chips.length > 0 ? (
        <Pill.Group role="list" aria-label={label}>
          {chips.map((chip) => (
            <Pill
              key={chip.key}
              role="listitem"
              withRemoveButton
              onRemove={chip.onRemove}
              // Mantine hides the remove button from keyboards and screen readers (made for PillsInput,
              // where Backspace removes); here it is the only way to remove, so it is a real button.
              removeButtonProps={{ 'aria-label': chip.removeLabel, 'aria-hidden': false, tabIndex: 0 }}
            >
              {chip.text}
            </Pill>
          ))}
        </Pill.Group>
      ) : null}
      {limitNote ? (
        <Text size="xs" c="dimmed">
          {limitNote}
        </Text>
      ) : null}
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

/** A search box over a picker's list; Enter searches at once instead of submitting the monitor form. */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
      maxLength={100}
      type="search"
    />
  );
}

/** An item's name in its checkbox's label, wrapped anywhere (names can be long unbroken words). */
export function ItemName({ children }: { children: ReactNode }) {
  return (
    <Text span fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}

/** One item of a picker's list: a bordered card holding its checkbox, and anything nested under it. */
export function CheckboxCard({
  checked,
  disabled,
  onToggle,
  label,
  description,
  styles,
  children,
}: {
  checked: boolean;
  disabled: boolean;
  onToggle: (on: boolean) => void;
  label: ReactNode;
  description: ReactNode;
  styles?: CheckboxProps['styles'];
  children?: ReactNode;
}) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" style={{ listStyle: 'none' }}>
      <Checkbox
        checked={checked}
        disabled={disabled}
        onChange={(event) => onToggle(event.currentTarget.checked)}
        styles={styles}
        label={label}
        description={description}
      />
      {children}
    </Paper>
  );
}

/** Grey cards standing in for a list's rows while it loads. */
export function ListSkeleton({ rows, height }: { rows: number; height: number }) {
  return (
    <Stack gap="xs" aria-hidden="true">
      {Array.from({ length: rows }, (_, n) => (
        <Skeleton key={n} h={height} radius="md" />
      ))}
    </Stack>
  );
}

/** Instead of a list that has nothing to show: why, and what to do. */
export function EmptyListNote({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Text size="sm" ta="center">
        {children}
      </Text>
    </Paper>
  );
}

/** A list that could not be loaded, with Retry. */
export function ListLoadFailed({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <ErrorState title={title} onRetry={onRetry}>
      Check your connection and try again.
    </ErrorState>
  );
}
