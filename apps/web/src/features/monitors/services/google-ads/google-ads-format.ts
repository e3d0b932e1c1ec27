import type { GoogleCustomer } from '@vigil/contracts';
import { countOf, formatCustomerId, humanise, type StatusTone } from '../ads/ads-format.ts';

/** "Hoodie Co (222-333-4444)". */
export function customerTitle(customer: { name: string; customerId: string }): string {
  return `${customer.name || 'Unnamed account'} (${formatCustomerId(customer.customerId)})`;
}

/** What a monitor watches in the account: "The whole account", "2 ads", "1 campaign and 2 ads". */
export function watchedSummary(campaigns: number, ads: number): string {
  const parts = [campaigns ? countOf(campaigns, 'campaign') : '', ads ? countOf(ads, 'ad') : ''];
  const chosen = parts.filter(Boolean);
  return chosen.length === 0 ? 'The whole account' : chosen.join(' and ');
}

/** An ad's `approval_status` as a badge. */
export function approvalBadge(status: string): { label: string; tone: StatusTone } {
  switch (status) {
    case 'APPROVED':
      return { label: 'Approved', tone: 'green' };
    case 'APPROVED_LIMITED':
      return { label: 'Approved (limited)', tone: 'yellow' };
    case 'DISAPPROVED':
      return { label: 'Disapproved', tone: 'red' };
    case 'AREA_OF_INTEREST_ONLY':
      return { label: 'Area of interest only', tone: 'yellow' };
    default:
      return { label: status ? humanise(status) : 'Not reviewed', tone: 'gray' };
  }
}

/** A campaign's `primary_status` as a badge. */
export function primaryStatusBadge(status: string): { label: string; tone: StatusTone } {
  switch (status) {
    case 'ELIGIBLE':
      return { label: 'Eligible', tone: 'green' };
    case 'LIMITED':
    case 'LEARNING':
    case 'PENDING':
    case 'MISCONFIGURED':
      return { label: humanise(status), tone: 'yellow' };
    case 'NOT_ELIGIBLE':
      return { label: 'Not eligible', tone: 'red' };
    default:
      return { label: humanise(status), tone: 'gray' };
  }
}

/** The accounts of the list that can be watched: direct non-manager ones and managers' clients, once each. */
export function advertisableCustomers(list: GoogleCustomer[]) {
  const seen = new Set<string>();
  const all = [];
  for (const customer of list) {
    const entries = customer.manager ? customer.clients : [customer];
    for (const entry of entries) {
      if (entry.manager || seen.has(entry.resourceName)) continue;
      seen.add(entry.resourceName);
      all.push(entry);
    }
  }
  return all;
}
