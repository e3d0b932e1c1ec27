import { Box, Image } from '@mantine/core';
import { IconPhoto } from '../../../../components/icons.tsx';

/** A product's image, or a placeholder for one without. Decorative: the title beside it names the product. */
export function Thumbnail({ src }: { src: string | null }) {
  if (!src) {
    return (
      <Box
        w={48}
        h={48}
        bg="var(--mantine-color-gray-1)"
        c="dimmed"
        style={{ borderRadius: 8, display: 'grid', placeItems: 'center', flex: 'none' }}
      >
        <IconPhoto size={20} />
      </Box>
    );
  }
  return (
    <Image src={src} alt="" w={48} h={48} radius="sm" fit="cover" loading="lazy" style={{ flex: 'none' }} />
  );
}
