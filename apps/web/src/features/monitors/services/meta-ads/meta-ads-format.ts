import {
  META_ACCOUNT_STATUS,
  META_DISABLE_REASON,
  type FacebookAccount,
  type FacebookAdSet,
} from '@vigil/contracts';
import { formatMoney } from '../../../../lib/format-money.ts';
import { countOf, humanise, type StatusTone } from '../ads/ads-format.ts';

/** "Hoodie Co Ads (act_1010101010)". */
export function adAccountTitle(account: { name: string; accountId: string }): string {
  return `${account.name || 'Unnamed ad account'} (act_${account.accountId})`;
}

/** What a monitor watches in the ad account: "2 ad sets", or every active one. */
export function adSetsSummary(count: number): string {
  return count === 0 ? 'every active ad set' : countOf(count, 'ad set');
}

/** `account_status` 1 and 201 serve ads. */
export function isActiveAccount(account: Pick<FacebookAccount, 'accountStatus'>): boolean {
  return account.accountStatus === 1 || account.accountStatus === 201;
}

/**
 * The account's status in words, with the disable reason when it is not active: "Active", "Disabled: ads
 * integrity policy".
 */
export function accountStatusWords(
  account: Pick<FacebookAccount, 'accountStatus' | 'statusLabel' | 'disableReason' | 'disableReasonLabel'>,
): string {
  const words = META_ACCOUNT_STATUS[account.accountStatus] ?? account.statusLabel;
  const status = `${words[0]?.toUpperCase() ?? ''}${words.slice(1)}`;
  if (isActiveAccount(account) || account.disableReason === 0) return status;
  const reason = META_DISABLE_REASON[account.disableReason] ?? account.disableReasonLabel;
  return reason ? `${status}: ${reason}` : status;
}

/** "Spent $1,234.56 of a $5,000.00 spend cap", or "Spent $1,234.56 · no spend cap". */
export function spendWords(account: Pick<FacebookAccount, 'amountSpent' | 'spendCap' | 'currency'>): string {
  const spent = `Spent ${formatMoney(account.amountSpent, account.currency)}`;
  return account.spendCap && Number(account.spendCap) > 0
    ? `${spent} of a ${formatMoney(account.spendCap, account.currency)} spend cap`
    : `${spent} · no spend cap`;
}

/** An ad set's budget: "Daily budget $60.00", "Lifetime budget $900.00", or the campaign's. */
export function budgetWords(adSet: Pick<FacebookAdSet, 'dailyBudget' | 'lifetimeBudget'>, currency: string) {
  if (adSet.dailyBudget) return `Daily budget ${formatMoney(adSet.dailyBudget, currency)}`;
  if (adSet.lifetimeBudget) return `Lifetime budget ${formatMoney(adSet.lifetimeBudget, currency)}`;
  return 'Budget set on the campaign';
}

/** An ad set's `effective_status` as a badge. */
export function adSetStatusBadge(status: string): { label: string; tone: StatusTone } {
  switch (status) {
    case 'ACTIVE':
      return { label: 'Active', tone: 'green' };
    case 'DISAPPROVED':
      return { label: 'Disapproved', tone: 'red' };
    case 'WITH_ISSUES':
      return { label: 'With issues', tone: 'red' };
    case 'PENDING_REVIEW':
    case 'IN_PROCESS':
    case 'PENDING_BILLING_INFO':
      return { label: humanise(status), tone: 'yellow' };
    default:
      return { label: humanise(status), tone: 'gray' };
  }
}
