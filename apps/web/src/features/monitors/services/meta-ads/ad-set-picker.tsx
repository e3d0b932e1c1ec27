import { Badge, Group, Stack, Text } from '@mantine/core';
import { META_MAX_AD_SETS, type FacebookAdSet } from '@vigil/contracts';
import type { AdsSource } from '../../api/ads-source.ts';
import { getFacebookAdSets } from '../../api/get-facebook-adsets.ts';
import {
  CheckboxCard,
  ChoiceFieldset,
  ChosenChips,
  EmptyListNote,
  ItemName,
  ListLoadFailed,
  ListSkeleton,
} from '../../components/picker-parts.tsx';
import { countOf } from '../ads/ads-format.ts';
import { CursorListFooter } from '../ads/cursor-list-footer.tsx';
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
    <CheckboxCard
      checked={checked}
      disabled={full && !checked}
      onToggle={onToggle}
      label={<ItemName>{adSet.name}</ItemName>}
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
    body = <ListLoadFailed title="The ad account’s ad sets could not be loaded" onRetry={adSets.retry} />;
  } else if (!loaded) {
    body = <ListSkeleton rows={3} height={72} />;
  } else if (items.length === 0) {
    body = (
      <EmptyListNote>
        This ad account has no ad sets yet. With none chosen, Vigil watches every active ad set as soon as
        there are some.
      </EmptyListNote>
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
    <ChoiceFieldset
      legend="Ad sets to watch"
      hint="With none chosen, every active ad set of the account is watched."
    >
      <ChosenChips
        summary={
          chosen.length === 0
            ? 'No ad sets chosen: every active ad set is watched'
            : `${countOf(chosen.length, 'ad set')} chosen`
        }
        label="Chosen ad sets"
        chips={chosen.map((adSet) => ({
          key: adSet.adSetId,
          text: adSet.name,
          removeLabel: `Remove ${adSet.name}`,
          onRemove: () => onChange(chosen.filter((entry) => entry.adSetId !== adSet.adSetId)),
        }))}
        limitNote={
          full ? `A monitor watches at most ${META_MAX_AD_SETS} ad sets; remove one to choose another.` : null
        }
        error={error}
      />
      {body}
      <CursorListFooter list={adSets} noun="ad set" />
    </ChoiceFieldset>
  );
}
