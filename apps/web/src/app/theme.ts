import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Vigil's one custom colour: a deep teal. Shade 7 is the primary (5.6:1 against white text). */
const vigil: MantineColorsTuple = [
  '#e3f6f4',
  '#c3ebe6',
  '#8ed7ce',
  '#57c2b6',
  '#2eaea1',
  '#169f92',
  '#0b8a7e',
  '#067569',
  '#04625a',
  '#024f49',
];

export const theme = createTheme({
  primaryColor: 'vigil',
  primaryShade: { light: 7, dark: 6 },
  colors: { vigil },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
});
