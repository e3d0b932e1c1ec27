import { Badge, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ServiceDefinition } from '@vigil/contracts';

/**
 * The catalogue's services as cards; those not available yet (per the catalogue, or without a module in this
 * app) are shown, disabled, with their reason.
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
      label="What to watch"
      error={error}
      description={locked ? 'A monitor keeps the service it was created for.' : undefined}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
        {services.map((service) => {
          const creatable = isCreatable(service);
          const disabled = !creatable || (locked === true && service.service !== value);
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
                  <Group gap="xs">
                    <Text fw={600}>{service.name}</Text>
                    {!creatable ? (
                      <Badge size="xs" variant="light" color="gray">
                        Not available yet
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {service.description}
                  </Text>
                  {!creatable && service.unavailableReason ? (
                    <Text size="sm">{service.unavailableReason}</Text>
                  ) : null}
                </Stack>
              </Group>
            </Radio.Card>
          );
        })}
      </SimpleGrid>
    </Radio.Group>
  );
}
