import { metaAdsConditions, metaAdsTargetInput } from '@vigil/contracts';
import { addTargetIssues } from '../ads/ads-target-errors.ts';
import { parseConditions } from '../conditions.ts';
import type { ServiceModule } from '../types.ts';
import { MetaAdsSection } from './meta-ads-section.tsx';

/** The ad account chosen, as the form keeps it (the body sends its id). */
export type ChosenAdAccount = { accountId: string; name: string; currency: string };
export type ChosenAdSet = { adSetId: string; name: string; campaignName: string };

export type MetaAdsTargetValues = {
  connectionId: string;
  account: ChosenAdAccount | null;
  /** None chosen: every active ad set of the account is watched. */
  adSets: ChosenAdSet[];
  linkedMonitorId: string | null;
};

export const META_CONNECTION_NEEDED_MESSAGE = 'Choose the Facebook account to read, or connect one.';
export const AD_ACCOUNT_NEEDED_MESSAGE = 'Choose the ad account to watch.';

const EMPTY: MetaAdsTargetValues = { connectionId: '', account: null, adSets: [], linkedMonitorId: null };

function fieldOf(path: string): string {
  const [, part] = /^target\.([^.]+)/.exec(path) ?? [];
  if (part === 'accountId' || part === 'account') return 'target.accountId';
  if (part === 'adSetIds' || part === 'adSets') return 'target.adSetIds';
  if (part === 'linkedMonitorId' || part === 'connectionId') return `target.${part}`;
  if (path === 'target') return 'target.connectionId';
  return path;
}

/** A Meta (Facebook and Instagram) ad account through a Facebook connection, and its chosen ad sets. */
export const metaAdsService: ServiceModule<MetaAdsTargetValues> = {
  service: 'facebook_ads',
  provider: 'meta',
  initialTarget: (monitor) => {
    if (monitor?.service !== 'facebook_ads') return { ...EMPTY };
    const { connectionId, account, adSets, linkedMonitorId } = monitor.target;
    return {
      connectionId,
      account: { accountId: account.accountId, name: account.name, currency: account.currency },
      adSets: adSets.map(({ adSetId, name, campaignName }) => ({ adSetId, name, campaignName })),
      linkedMonitorId,
    };
  },
  // Ad accounts belong to a Facebook account: another one starts with none chosen.
  withConnection: (target, connection) =>
    connection.connectionId === target.connectionId
      ? target
      : { ...EMPTY, connectionId: connection.connectionId, linkedMonitorId: target.linkedMonitorId },
  check(target, values) {
    const errors: Record<string, string> = {};
    if (!target.connectionId) errors['target.connectionId'] = META_CONNECTION_NEEDED_MESSAGE;
    else if (!target.account) errors['target.accountId'] = AD_ACCOUNT_NEEDED_MESSAGE;
    const parsed = metaAdsTargetInput.safeParse({
      connectionId: target.connectionId,
      accountId: target.account?.accountId,
      adSetIds: target.adSets.map((adSet) => adSet.adSetId),
      linkedMonitorId: target.linkedMonitorId,
    });
    if (!parsed.success) addTargetIssues(errors, parsed.error.issues, fieldOf, 'target.accountId');
    const conditions = parseConditions(errors, metaAdsConditions, values);
    if (!parsed.success || !conditions || Object.keys(errors).length > 0) return { errors, part: null };
    return { errors, part: { service: 'facebook_ads', target: parsed.data, conditions } };
  },
  formFieldOf: fieldOf,
  shownErrors: /^target\.(connectionId|accountId|adSetIds|linkedMonitorId)$/,
  Section: MetaAdsSection,
};
