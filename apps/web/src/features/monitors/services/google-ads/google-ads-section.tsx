import { Radio, Stack, Text, Title } from '@mantine/core';
import { AdsConnectionStep, ReconnectToSeeNote } from '../ads/ads-connection-step.tsx';
import { LinkedShopField } from '../ads/linked-shop-field.tsx';
import { useAdsSection } from '../ads/use-ads-section.ts';
import type { ServiceSectionProps } from '../types.ts';
import { AdsTree, type AdsChoice } from './ads-tree.tsx';
import { CustomerPicker } from './customer-picker.tsx';
import { customerTitle } from './google-ads-format.ts';
import type { ChosenCustomer, GoogleAdsTargetValues } from './index.ts';

/**
 * A Google Ads monitor's section: the Google account (chosen, reconnected or connected), then the Google Ads
 * account it reaches, then the whole account or chosen campaigns and ads, and the shop the ads lead to.
 */
export function GoogleAdsSection(props: ServiceSectionProps) {
  const { target, errors, update, chosen, source, connectionStep, linkedShop } =
    useAdsSection<GoogleAdsTargetValues>('google', props);

  function chooseConnection(connectionId: string) {
    if (connectionId === target.connectionId) return;
    update({ connectionId, customer: null, campaigns: [], ads: [] }, ['target.connectionId']);
  }

  function chooseCustomer(customer: ChosenCustomer) {
    if (customer.resourceName === target.customer?.resourceName) return;
    update({ customer, campaigns: [], ads: [] }, ['target.customer']);
  }

  function chooseAds(choice: AdsChoice) {
    update(choice, ['target.adIds', 'target.campaignIds']);
  }

  const customer = target.customer;

  return (
    <Stack gap="lg">
      <AdsConnectionStep
        {...connectionStep}
        onChange={chooseConnection}
        connectLabel="Connect Google Ads"
        connectHint="Google asks you to let Vigil read your Google Ads accounts, then brings you back here with this form as you left it."
      />

      {chosen && source && chosen.status !== 'active' ? (
        <ReconnectToSeeNote
          connection={chosen}
          accounts="Google Ads accounts"
          chosenTitle={customer ? customerTitle(customer) : null}
        />
      ) : null}

      {chosen && source && chosen.status === 'active' ? (
        <CustomerPicker
          key={chosen.connectionId}
          source={source}
          value={customer?.resourceName}
          onChange={chooseCustomer}
          error={errors['target.customer']}
        />
      ) : !chosen && errors['target.customer'] ? (
        <Text size="sm" c="red" role="alert">
          {errors['target.customer']}
        </Text>
      ) : null}

      {chosen && source && chosen.status === 'active' && customer ? (
        <Stack gap="sm" component="section" aria-labelledby="google-ads-watch-title">
          <Title order={3} fz="md" id="google-ads-watch-title">
            What to watch in {customerTitle(customer)}
          </Title>
          <Radio.Group
            aria-labelledby="google-ads-watch-title"
            value={target.watch}
            onChange={(watch) =>
              update({ watch: watch === 'chosen' ? 'chosen' : 'account' }, [
                'target.adIds',
                'target.campaignIds',
              ])
            }
          >
            <Stack gap="xs">
              <Radio
                value="account"
                label="The whole account"
                description="Its status, spend and impressions, and every ad it serves."
              />
              <Radio
                value="chosen"
                label="Chosen campaigns and ads"
                description="Only what you tick below (the account’s status and spend are still checked)."
              />
            </Stack>
          </Radio.Group>
          {target.watch === 'chosen' ? (
            <AdsTree
              key={customer.resourceName}
              source={source}
              resourceName={customer.resourceName}
              customerName={customer.name}
              choice={{ campaigns: target.campaigns, ads: target.ads }}
              onChange={chooseAds}
              error={errors['target.adIds'] ?? errors['target.campaignIds']}
            />
          ) : null}
        </Stack>
      ) : null}

      <LinkedShopField {...linkedShop} />
    </Stack>
  );
}
