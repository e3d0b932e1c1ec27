import { List, Text, VisuallyHidden } from '@mantine/core';
import { PASSWORD_RULES } from '@vigil/contracts';
import { IconCheck, IconCircle } from '../../../components/icons.tsx';

/** The password rules, each ticked as soon as the typed password meets it. */
export function PasswordRules({ password }: { password: string }) {
  return (
    <List spacing={4} size="sm" listStyleType="none" aria-label="Password rules" aria-live="polite">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <List.Item
            key={rule.id}
            data-rule={rule.id}
            data-met={met}
            icon={
              met ? (
                <IconCheck size={16} color="var(--mantine-color-vigil-7)" />
              ) : (
                <IconCircle size={16} color="var(--mantine-color-gray-5)" />
              )
            }
          >
            <Text size="sm" c={met ? 'var(--mantine-color-vigil-8)' : 'dimmed'} span>
              {rule.label}
            </Text>
            <VisuallyHidden>{met ? ' (met)' : ' (not met yet)'}</VisuallyHidden>
          </List.Item>
        );
      })}
    </List>
  );
}

export function passwordMeetsRules(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password));
}
