import {
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Pill,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { META_MAX_AD_SETS, type FacebookAdSet } from '@vigil/contracts';
import { ErrorState } from '../../../../components/page-states.tsx';
import type { AdsSource } from '../../api/ads-source.ts';
import { getFacebookAdSets } from '../../api/get-facebook-adsets.ts';
import { countOf } from '../ads/ads-format.ts';
import { useCursorList } from '../ads/use-cursor-list.ts';
import type { ChosenAdSet } from './index.ts';
import { adSetStatusBadge, budgetWords } from './meta-ads-format.ts';

function AdSetRow({
  adSet,
  currency,
  checked,
  full,
  onToggle,
}: {
  adSet: FacebookAdSet;
  currency: string;
  checked: boolean;
  full: boolean;
  onToggle: (on: boolean) => void;
}) {
  const status = adSetStatusBadge(adSet.effectiveStatus);
  return (
    <Paper component="li" withBorder radius="md" p="sm" style={{ listStyle: 'none' }}>
      <Checkbox
        checked={checked}
        disabled={full && !checked}
        onChange={(event) => onToggle(event.currentTarget.checked)}
        label={
          <Text span fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {adSet.name}
          </Text>
        }
        description={
          <Stack gap={4} component="span" mt={2}>
            <Group gap={6} component="span">
              <Badge component="span" size="sm" variant="light" color={status.tone} radius="sm">
                {status.label}
              </Badge>
              <span>{adSet.campaignName}</span>
              <span aria-hidden="true">·</span>
              <span>{budgetWords(adSet, currency)}</span>
            </Group>
            {adSet.issues.length > 0 ? (
              <Text span size="sm" c="red.8" display="block">
                Issues: {adSet.issues.join(' ')}
              </Text>
            ) : null}
          </Stack>
        }
      />
    </Paper>
  );
}

/**
 * The ad account's ad sets to watch, a page at a time ("Load more"), as checkboxes with their status, budget
 * and issues. None chosen watches every active ad set. The choice is the form's, and shows as removable chips.
 */
export function AdSetPicker({
  source,
  accountId,
  currency,
  chosen,
  onChange,
  error,
}: {
  source: AdsSource;
  accountId: string;
  currency: string;
  chosen: ChosenAdSet[];
  onChange: (chosen: ChosenAdSet[]) => void;
  error?: string | undefined;
}) {
  const adSets = useCursorList(`facebook-adsets:${accountId}:${JSON.stringify(source)}`, (after, signal) =>
    getFacebookAdSets({ accountId, source, ...(after ? { after } : {}) }, signal),
  );
  const { items, status, loaded } = adSets;
  const chosenIds = new Set(chosen.map((adSet) => adSet.adSetId));
  const full = chosen.length >= META_MAX_AD_SETS;

  function toggle(adSet: FacebookAdSet, on: boolean) {
    onChange(
      on
        ? [...chosen, { adSetId: adSet.adSetId, name: adSet.name, campaignName: adSet.campaignName }]
        : chosen.filter((entry) => entry.adSetId !== adSet.adSetId),
    );
  }

  let body;
  if (!loaded && status === 'failed') {
    body = (
      <ErrorState title="The ad account’s ad sets could not be loaded" onRetry={adSets.retry}>
        Check your connection and try again.
      </ErrorState>
    );
  } else if (!loaded) {
    body = (
      <Stack gap="xs" aria-hidden="true">
        {Array.from({ length: 3 }, (_, n) => (
          <Skeleton key={n} h={72} radius="md" />
        ))}
      </Stack>
    );
  } else if (items.length === 0) {
    body = (
      <Paper withBorder radius="md" p="lg">
        <Text size="sm" ta="center">
          This ad account has no ad sets yet. With none chosen, Vigil watches every active ad set as soon as
          there are some.
        </Text>
      </Paper>
    );
  } else {
    body = (
      <Stack component="ul" gap="xs" m={0} p={0} aria-label="Ad sets of the ad account">
        {items.map((adSet) => (
          <AdSetRow
            key={adSet.adSetId}
            adSet={adSet}
            currency={currency}
            checked={chosenIds.has(adSet.adSetId)}
            full={full}
            onToggle={(on) => toggle(adSet, on)}
          />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="sm" component="fieldset" m={0} p={0} style={{ border: 0, minWidth: 0 }}>
      <Text component="legend" fw={600} size="sm" p={0}>
        Ad sets to watch
      </Text>
      <Text size="sm" c="dimmed">
        With none chosen, every active ad set of the account is watched.
      </Text>
      <Stack gap={6}>
        <Text size="sm" fw={600} aria-live="polite">
          {chosen.length === 0
            ? 'No ad sets chosen: every active ad set is watched'
            : `${countOf(chosen.length, 'ad set')} chosen`}
        </Text>
        {chosen.length > 0 ? (
          <Pill.Group role="list" aria-label="Chosen ad sets">
            {chosen.map((adSet) => (
              <Pill
                key={adSet.adSetId}
                role="listitem"
                withRemoveButton
                onRemove={() => onChange(chosen.filter((entry) => entry.adSetId !== adSet.adSetId))}
                removeButtonProps={{
                  'aria-label': `Remove ${adSet.name}`,
                  'aria-hidden': false,
                  tabIndex: 0,
                }}
              >
                {adSet.name}
              </Pill>
            ))}
          </Pill.Group>
        ) : null}
        {full ? (
          <Text size="xs" c="dimmed">
            A monitor watches at most {META_MAX_AD_SETS} ad sets; remove one to choose another.
          </Text>
        ) : null}
        {error ? (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        ) : null}
      </Stack>
      {body}
      {loaded && status === 'failed' ? (
        <ErrorState title="More ad sets could not be loaded" onRetry={adSets.retry}>
          Check your connection and try again.
        </ErrorState>
      ) : null}
      {loaded && adSets.hasMore && status !== 'failed' ? (
        <Button
          variant="default"
          onClick={adSets.loadMore}
          loading={status === 'loading'}
          style={{ alignSelf: 'flex-start' }}
        >
          Load more ad sets
        </Button>
      ) : null}
      <VisuallyHidden role="status" aria-live="polite">
        {status === 'loading'
          ? 'Loading ad sets…'
          : loaded
            ? `${countOf(items.length, 'ad set')} listed${adSets.hasMore ? ', more to load' : ''}.`
            : ''}
      </VisuallyHidden>
    </Stack>
  );
}
