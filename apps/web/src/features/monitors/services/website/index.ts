import { websiteConditions, websiteTarget } from '@vigil/contracts';
import { parseConditions } from '../conditions.ts';
import type { ServiceModule } from '../types.ts';
import { WebsiteSection } from './website-section.tsx';

export type WebsiteTargetValues = { url: string };

/** Any page, by its address. */
export const websiteService: ServiceModule<WebsiteTargetValues> = {
  service: 'website',
  initialTarget: (monitor) => ({ url: monitor?.service === 'website' ? monitor.target.url : '' }),
  check(target, values) {
    const errors: Record<string, string> = {};
    const parsed = websiteTarget.safeParse({ url: target.url });
    if (!parsed.success) {
      errors['target.url'] = parsed.error.issues[0]?.message ?? 'Enter a full web address.';
    }
    const conditions = parseConditions(errors, websiteConditions, values);
    if (!parsed.success || !conditions || Object.keys(errors).length > 0) return { errors, part: null };
    return { errors, part: { service: 'website', target: parsed.data, conditions } };
  },
  formFieldOf: (path) => (path === 'target' ? 'target.url' : path),
  // With the parameter's label they read as one sentence: "Alert when the keyword is missing from the page".
  conditionOptionLabels: { missing: 'is missing from the page', present: 'appears on the page' },
  shownErrors: /^target\.url$/,
  Section: WebsiteSection,
};
