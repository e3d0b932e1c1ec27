// What the toasts' lazy chunk holds (providers.tsx): the container alone, so Mantine's notifications store, which
// pages import, stays where they are and this chunk is fetched only when a toast is first shown.
export { Notifications } from '@mantine/notifications';
