import type { FastifyInstance } from 'fastify';
import {
  APPROVAL_STATUSES,
  CAMPAIGN_PRIMARY_STATUSES,
  CAMPAIGN_PRIMARY_STATUS_REASONS,
  CUSTOMER_STATUSES,
  DEMO_MANAGER_ID,
} from './google-catalogue.ts';
import {
  GoogleActionError,
  type ApprovalStatus,
  type CampaignPrimaryStatus,
  type CampaignPrimaryStatusReason,
  type CustomerStatus,
  type GoogleCustomerDetail,
  type GoogleSandbox,
} from './google.ts';
import { escapeHtml, page } from './html.ts';

/**
 * The Google control page at `${basePath}/google`: the endpoints and credentials, the quota, the users (with
 * Revoke), and for one customer its status, today's traffic, its campaigns' primary status and its ads' policy
 * approval. Plain forms that post to `${basePath}/google/control/{action}` and redirect back.
 */
type Body = Record<string, string | undefined> | undefined;

const options = (values: readonly string[], selected: string) =>
  values.map((v) => `<option value="${v}"${v === selected ? ' selected' : ''}>${v}</option>`).join('');

/** What each button does, by the name in its form's action; answers the notice to show. */
const ACTIONS: Record<string, (google: GoogleSandbox, body: Body) => string> = {
  status: (google, body) => {
    const customer = google.setCustomerStatus(body?.customer ?? '', (body?.status ?? '') as CustomerStatus);
    return `${customer.descriptiveName} is now ${customer.status}.`;
  },
  today: (google, body) => {
    if (!body?.factor?.trim()) throw new GoogleActionError('INVALID', 'Enter a factor, e.g. 0 or 0.5.');
    const customer = google.scaleToday(body.customer ?? '', Number(body.factor));
    return `Today's impressions and spend of ${customer.descriptiveName} are now ×${customer.todayFactor}.`;
  },
  'primary-status': (google, body) => {
    const reasons = body?.reason ? [body.reason as CampaignPrimaryStatusReason] : [];
    const campaign = google.setCampaignPrimaryStatus(
      body?.customer ?? '',
      body?.campaignId ?? '',
      (body?.primaryStatus ?? '') as CampaignPrimaryStatus,
      reasons,
    );
    return `${campaign.name} is now ${campaign.primaryStatus}${reasons.length ? ` (${reasons.join(', ')})` : ''}.`;
  },
  approval: (google, body) => {
    const ad = google.setAdApproval(
      body?.customer ?? '',
      body?.adId ?? '',
      (body?.approvalStatus ?? '') as ApprovalStatus,
      { topic: body?.topic?.trim() || undefined },
    );
    const topic = ad.policyTopicEntries[0];
    return `${ad.name} is now ${ad.approvalStatus}${topic ? ` (${topic.topic}, ${topic.type})` : ''}.`;
  },
  revoke: (google, body) => {
    const { revokedRefreshTokens } = google.revokeUser(body?.email ?? '');
    return `Revoked Vigil's access for ${body?.email}: ${revokedRefreshTokens} refresh token(s) now answer invalid_grant.`;
  },
  'remaining-operations': (google, body) => {
    if (!body?.remaining?.trim()) throw new GoogleActionError('INVALID', 'Enter a number of operations.');
    const quota = google.setRemainingOperations(Number(body.remaining));
    return `${quota.remainingOperations} operations are left today.`;
  },
  exhaust: (google, body) => {
    if (!body?.seconds?.trim()) throw new GoogleActionError('INVALID', 'Enter a number of seconds.');
    google.exhaustQuota(Number(body.seconds));
    return `Every request answers RESOURCE_TEMPORARILY_EXHAUSTED for ${Number(body.seconds)} seconds.`;
  },
  'reset-usage': (google) => {
    google.resetUsage();
    return 'Usage counters reset.';
  },
  reset: (google) => {
    google.reset();
    return 'Back to the demo accounts: tokens, changes, bulk customers and counters are gone.';
  },
};

function hidden(customer: string): string {
  return `<input type="hidden" name="customer" value="${escapeHtml(customer)}">`;
}

function overviewSection(google: GoogleSandbox, action: (name: string) => string): string {
  const quota = google.quota();
  const usage = google.usage().total;
  const { endpoints } = google;
  return `<section aria-labelledby="google-heading">
<h1 id="google-heading">Google Ads</h1>
<p class="muted">Stands in for Google's OAuth 2.0 and the Google Ads REST API. Client <code>${escapeHtml(google.clientId)}</code>,
developer token <code>${escapeHtml(google.developerToken)}</code>.</p>
<ul>
<li>Authorize: <code>${escapeHtml(endpoints.authorize)}</code></li>
<li>Token: <code>${escapeHtml(endpoints.token)}</code>, revoke: <code>${escapeHtml(endpoints.revoke)}</code></li>
<li>Google Ads API: <code>${escapeHtml(endpoints.ads)}</code> (any <code>v\\d+</code>)</li>
</ul>
<h2>Quota</h2>
<p>${quota.remainingOperations} of ${quota.dailyOperations} operations left today (resets ${escapeHtml(quota.resetsAt)}).
${quota.exhaustedUntil ? `<strong>Rate limited until ${escapeHtml(quota.exhaustedUntil)}.</strong>` : ''}
API requests: ${usage.requests}, operations ${usage.operations}, errors ${usage.errors}.</p>
<form method="post" action="${action('remaining-operations')}" class="inline">
<label for="remaining">Operations left today</label>
<input id="remaining" name="remaining" type="number" min="0" step="1" value="${quota.remainingOperations}" required>
<button type="submit">Set operations left</button></form>
<form method="post" action="${action('exhaust')}" class="inline">
<label for="exhaust-seconds">Rate limit for (seconds)</label>
<input id="exhaust-seconds" name="seconds" type="number" min="0" max="86400" step="1" value="60" required>
<button type="submit">Exhaust quota</button></form>
<form method="post" action="${action('reset-usage')}" class="inline"><button type="submit">Reset usage counters</button></form>
<form method="post" action="${action('reset')}" class="inline"><button type="submit">Reset to the demo accounts</button></form>
</section>`;
}

function usersSection(google: GoogleSandbox, action: (name: string) => string): string {
  const rows = google
    .users()
    .map(
      (
        u,
      ) => `<tr><th scope="row">${escapeHtml(u.name)}<br><span class="muted">${escapeHtml(u.email)}</span></th>
<td>${u.customerIds.map((id) => `<code>${id}</code>`).join(', ') || 'none (NOT_ADS_USER)'}</td>
<td>${u.refreshTokens}</td>
<td><form method="post" action="${action('revoke')}" class="inline"><input type="hidden" name="email" value="${escapeHtml(u.email)}">
<button type="submit" aria-label="Revoke Vigil's access for ${escapeHtml(u.email)}"${u.refreshTokens ? '' : ' disabled'}>Revoke</button></form></td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="users-heading"><h2 id="users-heading">Google users</h2>
<div class="scroll"><table><thead><tr><th scope="col">User</th><th scope="col">Direct access</th><th scope="col">Refresh tokens</th><th scope="col">Access</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="muted">Revoke stands for removing Vigil at myaccount.google.com: refreshing answers invalid_grant, API calls OAUTH_TOKEN_REVOKED.</p></section>`;
}

function customerSection(
  google: GoogleSandbox,
  customer: GoogleCustomerDetail,
  basePath: string,
  action: (name: string) => string,
): string {
  const all = google.customers();
  const choices = all
    .map(
      (c) =>
        `<option value="${c.id}"${c.id === customer.id ? ' selected' : ''}>${escapeHtml(c.descriptiveName)} — ${c.id}${c.manager ? ' (manager)' : ''}</option>`,
    )
    .join('');
  const reach = customer.managerId
    ? `A client of <code>${customer.managerId}</code>: reached with <code>login-customer-id: ${customer.managerId}</code>.`
    : customer.manager
      ? `A manager with ${customer.clientIds.length} direct clients.`
      : 'A standalone account.';
  const campaigns = customer.campaigns
    .map(
      (
        c,
      ) => `<tr><th scope="row">${escapeHtml(c.name)}<br><span class="muted">${c.id} · ${c.advertisingChannelType} · ${c.status}</span></th>
<td>${c.primaryStatus}${c.primaryStatusReasons.length ? `<br><span class="muted">${c.primaryStatusReasons.join(', ')}</span>` : ''}</td>
<td><form method="post" action="${action('primary-status')}" class="inline">${hidden(customer.id)}<input type="hidden" name="campaignId" value="${c.id}">
<select name="primaryStatus" aria-label="Primary status of ${escapeHtml(c.name)}">${options(CAMPAIGN_PRIMARY_STATUSES, c.primaryStatus)}</select>
<select name="reason" aria-label="Reason for ${escapeHtml(c.name)}"><option value="">(no reason)</option>${options(CAMPAIGN_PRIMARY_STATUS_REASONS, c.primaryStatusReasons[0] ?? '')}</select>
<button type="submit" aria-label="Set primary status of ${escapeHtml(c.name)}">Set</button></form></td></tr>`,
    )
    .join('\n');
  const ads = customer.ads
    .map((ad) => {
      const topic = ad.policyTopicEntries[0];
      return `<tr><th scope="row">${escapeHtml(ad.name)}<br><span class="muted">${escapeHtml(ad.campaignName)} › ${escapeHtml(ad.adGroupName)} · ${ad.id}</span></th>
<td>${ad.approvalStatus}${topic ? `<br><span class="muted">${escapeHtml(topic.topic)} (${topic.type})</span>` : ''}</td>
<td><form method="post" action="${action('approval')}" class="inline">${hidden(customer.id)}<input type="hidden" name="adId" value="${ad.id}">
<select name="approvalStatus" aria-label="Approval of ${escapeHtml(ad.name)}">${options(APPROVAL_STATUSES, ad.approvalStatus)}</select>
<input class="narrow" type="text" name="topic" placeholder="DESTINATION_NOT_WORKING" aria-label="Policy topic for ${escapeHtml(ad.name)}">
<button type="submit" aria-label="Set approval of ${escapeHtml(ad.name)}">Set</button></form></td></tr>`;
    })
    .join('\n');
  const noData = customer.manager ? '<p class="muted">A manager has no campaigns of its own.</p>' : '';
  const listed = all
    .slice(0, 50)
    .map(
      (
        c,
      ) => `<tr><th scope="row"><a href="${escapeHtml(`${basePath}/google?customer=${c.id}`)}">${escapeHtml(c.descriptiveName)}</a></th>
<td><code>${c.id}</code></td><td>${c.status}</td><td>${c.manager ? 'manager' : c.managerId ? `client of ${c.managerId}` : 'standalone'}</td>
<td>${c.campaignCount} campaigns, ${c.adCount} ads</td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="customers-heading"><h2 id="customers-heading">Customers (${all.length})</h2>
<div class="scroll"><table>${all.length > 50 ? '<caption class="muted" style="text-align:left">The first 50.</caption>' : ''}
<thead><tr><th scope="col">Customer</th><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Kind</th><th scope="col">Contents</th></tr></thead>
<tbody>${listed}</tbody></table></div></section>
<section aria-labelledby="customer-heading">
<form method="get" action="${escapeHtml(`${basePath}/google`)}" class="inline">
<label for="customer-choice">Customer</label>
<select id="customer-choice" name="customer">${choices}</select>
<button type="submit">Open customer</button></form>
<h2 id="customer-heading">${escapeHtml(customer.descriptiveName)}</h2>
<p><code>${escapeHtml(customer.resourceName)}</code> · ${escapeHtml(customer.currencyCode)} · ${escapeHtml(customer.timeZone)} · <strong>${customer.status}</strong>. ${reach}</p>
<form method="post" action="${action('status')}" class="inline">${hidden(customer.id)}
<label for="customer-status">Account status</label>
<select id="customer-status" name="status">${options(CUSTOMER_STATUSES, customer.status)}</select>
<button type="submit">Set account status</button></form>
<form method="post" action="${action('today')}" class="inline">${hidden(customer.id)}
<label for="today-factor">Today's traffic ×</label>
<input id="today-factor" name="factor" type="number" min="0" max="100" step="0.01" value="${customer.todayFactor}" required aria-describedby="today-hint">
<button type="submit">Scale today</button>
<span id="today-hint" class="muted">0: no impressions or spend so far today; earlier days keep theirs.</span></form>
${noData}
${customer.campaigns.length ? `<h3>Campaigns</h3><div class="scroll"><table><thead><tr><th scope="col">Campaign</th><th scope="col">Primary status</th><th scope="col">Change</th></tr></thead><tbody>${campaigns}</tbody></table></div>` : ''}
${customer.ads.length ? `<h3>Ads</h3><div class="scroll"><table><thead><tr><th scope="col">Ad</th><th scope="col">Policy approval</th><th scope="col">Change</th></tr></thead><tbody>${ads}</tbody></table></div>` : ''}
<p class="muted">All campaigns and ads start ELIGIBLE and APPROVED; enabled campaigns have hourly metrics for the last 35 days in the account's time zone.</p>
</section>`;
}

/** The Google line on the sandbox home page. */
export function googleSummary(google: GoogleSandbox, basePath: string): string {
  const tokens = google.accessTokens();
  const usage = google.usage().total;
  return `<section aria-labelledby="google-summary-heading"><h2 id="google-summary-heading">Google Ads</h2>
<p>${google.users().length} Google users, ${google.customers().length} customers, ${tokens.length} access tokens issued, ${usage.requests} API requests.
<a href="${escapeHtml(`${basePath}/google`)}">Open the Google Ads sandbox</a></p></section>`;
}

export function registerGooglePage(app: FastifyInstance, google: GoogleSandbox, basePath: string): void {
  const action = (name: string) => escapeHtml(`${basePath}/google/control/${name}`);
  const back = (customer: string | undefined, notice: string) =>
    `${basePath}/google?${new URLSearchParams({ ...(customer ? { customer } : {}), notice })}`;

  app.get<{ Querystring: { customer?: string; notice?: string } }>('/google', async (request, reply) => {
    // The demo manager always exists (reset() makes it again), so there is always a customer to show.
    const customer = google.customer(request.query.customer ?? '') ?? google.customer(DEMO_MANAGER_ID)!;
    const notice = request.query.notice;
    const body = `${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
<p><a href="${escapeHtml(basePath)}">← Sandbox home</a></p>
${overviewSection(google, action)}
${usersSection(google, action)}
${customerSection(google, customer, basePath, action)}`;
    return reply.type('text/html').send(page('Google Ads — Vigil sandbox', body));
  });

  app.post<{ Params: { action: string }; Body: Body }>('/google/control/:action', async (request, reply) => {
    const act = ACTIONS[request.params.action];
    const customer = request.body?.customer;
    if (!act) return reply.redirect(back(customer, 'Unknown action.'), 303);
    try {
      return reply.redirect(back(customer, act(google, request.body)), 303);
    } catch (error) {
      if (!(error instanceof GoogleActionError)) throw error;
      return reply.redirect(back(customer, error.message), 303);
    }
  });
}
