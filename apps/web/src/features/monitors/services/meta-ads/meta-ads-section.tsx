import { Stack } from '@mantine/core';
import { AdsConnectionStep, ReconnectToSeeNote } from '../ads/ads-connection-step.tsx';
import { LinkedShopField } from '../ads/linked-shop-field.tsx';
import { useAdsSection } from '../ads/use-ads-section.ts';
import type { ServiceSectionProps } from '../types.ts';
import { AdAccountPicker } from './ad-account-picker.tsx';
import { AdSetPicker } from './ad-set-picker.tsx';
import type { ChosenAdAccount, ChosenAdSet, MetaAdsTargetValues } from './index.ts';
import { adAccountTitle } from './meta-ads-format.ts';

/**
 * A Meta ads monitor's section: the Facebook account (chosen, reconnected or connected), then one of its ad
 * accounts, the ad sets to watch (none = every active one), and the shop the ads lead to.
 */
export function MetaAdsSection(props: ServiceSectionProps) {
  const { target, errors, update, chosen, source, connectionStep, linkedShop } =
    useAdsSection<MetaAdsTargetValues>('meta', props);

  function chooseConnection(connectionId: string) {
    if (connectionId === target.connectionId) return;
    update({ connectionId, account: null, adSets: [] }, ['target.connectionId']);
  }

  function chooseAccount(account: ChosenAdAccount) {
    if (account.accountId === target.account?.accountId) return;
    update({ account, adSets: [] }, ['target.accountId']);
  }

  function chooseAdSets(adSets: ChosenAdSet[]) {
    update({ adSets }, ['target.adSetIds']);
  }

  const account = target.account;
  const working = chosen && source && chosen.status === 'active' ? source : null;

  return (
    <Stack gap="lg">
      <AdsConnectionStep
        {...connectionStep}
        onChange={chooseConnection}
        connectLabel="Connect Meta ads"
        connectHint="Facebook asks you to let Vigil read your ad accounts, then brings you back here with this form as you left it. Meta’s access lasts 60 days; Vigil reminds you to reconnect a week before it ends."
      />

      {chosen && chosen.status !== 'active' ? (
        <ReconnectToSeeNote
          connection={chosen}
          accounts="ad accounts"
          chosenTitle={account ? adAccountTitle(account) : null}
        />
      ) : null}

      {working ? (
        <AdAccountPicker
          key={chosen?.connectionId}
          source={working}
          value={account}
          onChange={chooseAccount}
          error={errors['target.accountId']}
        />
      ) : null}

      {working && account ? (
        <AdSetPicker
          key={account.accountId}
          source={working}
          accountId={account.accountId}
          currency={account.currency}
          chosen={target.adSets}
          onChange={chooseAdSets}
          error={errors['target.adSetIds']}
        />
      ) : null}

      <LinkedShopField {...linkedShop} />
    </Stack>
  );
}
