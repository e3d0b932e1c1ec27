import { Group, Radio, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ServiceDefinition } from '@vigil/contracts';

/**
 * The services a monitor can be created for, as cards: the catalogue's available ones this app has a module for.
 * Services still to be built are left off the page rather than shown disabled.
 */
export function ServicePicker({
  services,
  isCreatable,
  value,
  onChange,
  error,
  locked,
}: {
  services: ServiceDefinition[];
  isCreatable: (service: ServiceDefinition) => boolean;
  value: string;
  onChange: (service: string) => void;
  error?: string | undefined;
  /** An existing monitor keeps its service. */
  locked?: boolean;
}) {
  return (
    <Radio.Group
      value={value}
      onChange={onChange}
      // The form's section above is titled "What to watch": the group keeps the name for screen readers only.
      label={<VisuallyHidden>What to watch</VisuallyHidden>}
      error={error}
      description={locked ? 'A monitor keeps the service it was created for.' : undefined}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
        {services.filter(isCreatable).map((service) => {
          const disabled = locked === true && service.service !== value;
          return (
            <Radio.Card
              key={service.service}
              value={service.service}
              disabled={disabled}
              radius="md"
              p="md"
              style={disabled ? { opacity: 0.65, cursor: 'not-allowed' } : undefined}
            >
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator disabled={disabled} />
                <Stack gap={4}>
                  <Text fw={600}>{service.name}</Text>
                  <Text size="sm" c="dimmed">
                    {service.description}
                  </Text>
                </Stack>
              </Group>
            </Radio.Card>
          );
        })}
      </SimpleGrid>
    </Radio.Group>
  );
}
