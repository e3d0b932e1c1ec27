import { Group, NumberInput, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ServiceDefinition } from '@vigil/contracts';
import type { MonitorFormValues } from '../monitor-form.ts';

/** Each of the service's conditions: on/off, and when on, its parameters within the catalogue's bounds. */
export function ConditionFields({
  service,
  form,
  optionLabels = {},
}: {
  service: ServiceDefinition;
  form: UseFormReturnType<MonitorFormValues>;
  /** Words for the values of a choice parameter (the service module's); others show as given. */
  optionLabels?: Readonly<Record<string, string>> | undefined;
}) {
  const { conditions } = form.getValues();
  return (
    <Stack gap="sm">
      {service.conditions.map((definition) => {
        const path = `conditions.${definition.key}`;
        const enabled = conditions[definition.key]?.enabled ?? false;
        return (
          <Paper key={definition.key} withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
            <Switch
              label={
                <Text fw={600} size="sm" span>
                  {definition.label}
                </Text>
              }
              description={definition.description}
              {...form.getInputProps(`${path}.enabled`, { type: 'checkbox' })}
            />
            {enabled && definition.params.length > 0 ? (
              <Group gap="sm" mt="sm" ml={{ base: 0, xs: 52 }} align="flex-start">
                {definition.params.map((param) => {
                  const field = `${path}.${param.key}`;
                  if (param.options) {
                    return (
                      <Select
                        key={param.key}
                        label={param.label}
                        data={param.options.map((value) => ({ value, label: optionLabels[value] ?? value }))}
                        allowDeselect={false}
                        w={{ base: '100%', xs: 240 }}
                        {...form.getInputProps(field)}
                      />
                    );
                  }
                  if (param.type === 'number') {
                    return (
                      <NumberInput
                        key={param.key}
                        label={param.label}
                        description={
                          param.min !== undefined && param.max !== undefined
                            ? `${param.min}–${param.max}${param.unit ? ` ${param.unit}` : ''}`
                            : undefined
                        }
                        min={param.min}
                        max={param.max}
                        suffix={param.unit ? ` ${param.unit}` : undefined}
                        allowDecimal={false}
                        allowNegative={false}
                        thousandSeparator=","
                        w={180}
                        {...form.getInputProps(field)}
                      />
                    );
                  }
                  return (
                    <TextInput
                      key={param.key}
                      label={param.label}
                      required
                      maxLength={200}
                      w={{ base: '100%', xs: 260 }}
                      {...form.getInputProps(field)}
                    />
                  );
                })}
              </Group>
            ) : null}
          </Paper>
        );
      })}
      {form.errors.conditions ? (
        <Text size="sm" c="red" role="alert">
          {form.errors.conditions}
        </Text>
      ) : null}
    </Stack>
  );
}
