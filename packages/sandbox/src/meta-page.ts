import type { FastifyInstance } from 'fastify';
import { escapeHtml, page } from './html.ts';
import { HOODIE_ACCOUNT_ID } from './meta-catalogue.ts';
import {
  ACCOUNT_STATUSES,
  DISABLE_REASONS,
  EFFECTIVE_STATUSES,
  MetaActionError,
  type EffectiveStatus,
  type MetaAccountDetail,
  type MetaAccountView,
  type MetaSandbox,
  type MetaUserView,
} from './meta.ts';

/**
 * The Meta control page at `${basePath}/meta`: the app, the people and their tokens, the ad accounts (status,
 * spend, today's delivery, throttling) and one account's ad sets and ads. Plain forms that post and redirect back.
 */
const PAGE_SIZE = 10;

type Body = Record<string, string | undefined> | undefined;

const when = (iso: string) => `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC`;
const whole = (value: string | undefined, name: string): number => {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(n))
    throw new MetaActionError('INVALID', `Enter ${name}.`);
  return n;
};

/** What each button does, by the name in its form's action; answers the notice to show. */
const ACTIONS: Record<string, (meta: MetaSandbox, body: Body) => string> = {
  reset: (meta) => {
    meta.reset();
    return 'Back to the demo data: tokens, throttles and changes are gone.';
  },
  'reset-calls': (meta) => {
    meta.resetCalls();
    return 'Counters and rate-limit budgets are back to zero.';
  },
  'throttle-app': (meta, body) => {
    const seconds = whole(body?.seconds, 'a number of seconds');
    meta.throttle({ kind: 'app' }, seconds);
    return seconds ? `Every call now answers error 4 for ${seconds} s.` : 'The app is no longer throttled.';
  },
  'throttle-user': (meta, body) => {
    const seconds = whole(body?.seconds, 'a number of seconds');
    meta.throttle({ kind: 'user', id: body?.user }, seconds);
    return seconds ? `This person's calls answer error 17 for ${seconds} s.` : 'No longer throttled.';
  },
  revoke: (meta, body) => {
    const reason = body?.reason === 'app_removed' ? 'app_removed' : 'password';
    const tokens = meta.revokeTokens(body?.user ?? '', reason);
    return `${tokens.length} tokens now answer 190/${reason === 'password' ? 460 : 458}.`;
  },
  expire: (meta, body) => {
    const days = body?.now === 'true' ? 0 : whole(body?.days, 'a number of days');
    const tokens = meta.expireTokens(body?.user ?? '', days);
    return days
      ? `${tokens.length} tokens now end in ${days} days.`
      : `${tokens.length} tokens expired (190/463).`;
  },
  'issue-token': (meta, body) => {
    const token = meta.issueToken(body?.user ?? '');
    return `Issued a 60-day token: ${token.token}`;
  },
  'account-status': (meta, body) => {
    const account = meta.setAccountStatus(
      body?.account ?? '',
      whole(body?.accountStatus, 'an account status'),
      whole(body?.disableReason ?? '0', 'a disable reason'),
    );
    return `${account.name} is now ${ACCOUNT_STATUSES[account.accountStatus]} (${account.accountStatus}).`;
  },
  spend: (meta, body) => {
    const account = meta.setSpend(body?.account ?? '', {
      amountSpent: whole(body?.amountSpent, 'the amount spent in cents'),
      spendCap: whole(body?.spendCap, 'the spend cap in cents (0: none)'),
    });
    return `${account.name}: amount_spent ${account.amountSpent}, spend_cap ${account.spendCap} (cents).`;
  },
  today: (meta, body) => {
    const account = meta.scaleTodaySpend(body?.account ?? '', whole(body?.factor, 'a factor'));
    return `${account.name} delivers ×${account.todayFactor} today.`;
  },
  'throttle-account': (meta, body) => {
    const seconds = whole(body?.seconds, 'a number of seconds');
    meta.throttle({ kind: 'account', id: body?.account }, seconds);
    return seconds
      ? `Calls on this account answer 80004 for ${seconds} s.`
      : 'The account is no longer throttled.';
  },
  'adset-status': (meta, body) => {
    const adSet = meta.setAdSetStatus(body?.id ?? '', (body?.status ?? '') as EffectiveStatus, body?.issue);
    return `${adSet.name} is now ${adSet.effectiveStatus}.`;
  },
  'ad-status': (meta, body) => {
    const ad = meta.setAdStatus(body?.id ?? '', (body?.status ?? '') as EffectiveStatus, body?.issue);
    return `${ad.name} is now ${ad.effectiveStatus}.`;
  },
};

function options(values: Record<string | number, string>, selected: number | string): string {
  return Object.entries(values)
    .map(
      ([value, label]) =>
        `<option value="${escapeHtml(value)}"${String(selected) === value ? ' selected' : ''}>${escapeHtml(`${value} — ${label}`)}</option>`,
    )
    .join('');
}

function form(action: string, hidden: Record<string, string>, inner: string, label?: string): string {
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  return `<form method="post" action="${escapeHtml(action)}" class="inline"${label ? ` aria-label="${escapeHtml(label)}"` : ''}>${fields}${inner}</form>`;
}

function appSection(meta: MetaSandbox, act: (name: string) => string): string {
  const calls = meta.calls();
  const paths = Object.entries(calls.byPath)
    .map(([path, n]) => `<code>${escapeHtml(path)}</code> ${n}`)
    .join(', ');
  return `<section aria-labelledby="meta-heading">
<h1 id="meta-heading">Meta</h1>
<p class="muted">Stands in for Facebook Login (<code>${escapeHtml(meta.dialogUrl)}</code>) and the Graph / Marketing API
(<code>${escapeHtml(meta.graphUrl)}</code>, Graph's https://graph.facebook.com). The Vigil app is <code>${escapeHtml(meta.appId)}</code>,
redirecting to ${meta.redirectUris.map((u) => `<code>${escapeHtml(u)}</code>`).join(', ')}.</p>
<p>Graph API: ${calls.httpRequests} HTTP requests, ${calls.calls} calls (batch items count one each), ${calls.errors} errors,
${calls.throttled} throttled.${paths ? ` By path: ${paths}.` : ''}</p>
${form(act('reset-calls'), {}, '<button type="submit">Reset counters and budgets</button>')}
${form(
  act('throttle-app'),
  {},
  `<label for="app-seconds">Throttle the whole app (error 4) for</label>
<input id="app-seconds" type="number" min="0" max="86400" name="seconds" value="${meta.appThrottledUntil ? 0 : 60}" required> seconds
<button type="submit">Throttle app</button>${meta.appThrottledUntil ? ` <span>Throttled until ${escapeHtml(when(meta.appThrottledUntil))}.</span>` : ''}`,
)}
${form(act('reset'), {}, '<button type="submit">Reset to the demo data</button>')}
</section>`;
}

function userSection(user: MetaUserView, act: (name: string) => string): string {
  const hidden = { user: user.id };
  const tokens = user.tokens.length
    ? `<ul>${user.tokens
        .map(
          (t) =>
            `<li><code>${escapeHtml(t.token.slice(0, 16))}…</code> ${t.kind}-lived, ${escapeHtml(t.scopes.join(', '))}, ends ${escapeHtml(when(t.expiresAt))} —
<strong>${t.valid ? 'works' : `refused (190/${t.subcode})`}</strong></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No tokens yet: log in through the dialog, or issue one here.</p>';
  const id = escapeHtml(user.id);
  return `<section aria-labelledby="user-${id}">
<h2 id="user-${id}">${escapeHtml(user.name)} <span class="muted">(${id}, ${user.accountIds.length} ad accounts)</span></h2>
${tokens}
${form(act('issue-token'), hidden, '<button type="submit">Issue a 60-day token</button>', `Tokens of ${user.name}`)}
${form(
  act('revoke'),
  hidden,
  `<span>Make every token fail:</span>
<button type="submit" name="reason" value="password">Password changed (460)</button>
<button type="submit" name="reason" value="app_removed">App removed (458)</button>`,
  `Revoke the tokens of ${user.name}`,
)}
${form(
  act('expire'),
  hidden,
  `<label for="days-${id}">Working tokens end in</label>
<input id="days-${id}" type="number" min="0" max="3650" name="days" value="5"> days
<button type="submit">Set expiry</button>
<button type="submit" name="now" value="true">Expire now (463)</button>`,
  `Expiry of ${user.name}'s tokens`,
)}
${form(
  act('throttle-user'),
  hidden,
  `<label for="user-seconds-${id}">Throttle this person (error 17) for</label>
<input id="user-seconds-${id}" type="number" min="0" max="86400" name="seconds" value="60" required> seconds
<button type="submit">Throttle</button>${user.throttledUntil ? ` <span>Until ${escapeHtml(when(user.throttledUntil))}.</span>` : ''}`,
)}
</section>`;
}

function accountRow(a: MetaAccountView, basePath: string, act: (name: string) => string, pageNumber: number) {
  const hidden = { account: a.accountId, page: String(pageNumber) };
  const name = escapeHtml(a.name);
  return `<tr><th scope="row"><a href="${escapeHtml(`${basePath}/meta?account=${a.accountId}&page=${pageNumber}`)}">${name}</a><br>
<span class="muted">${escapeHtml(a.id)} · ${escapeHtml(a.currency)} · ${escapeHtml(a.timezone)}</span><br>
<span class="muted">Budget used: ${a.usage.ads_management.percent} % management, ${a.usage.ads_insights.percent} % insights${a.throttledUntil ? `; throttled until ${escapeHtml(when(a.throttledUntil))}` : ''}</span></th>
<td>${form(
    act('account-status'),
    hidden,
    `<select name="accountStatus" aria-label="account_status of ${name}">${options(ACCOUNT_STATUSES, a.accountStatus)}</select>
<select name="disableReason" aria-label="disable_reason of ${name}">${options(DISABLE_REASONS, a.disableReason)}</select>
<button type="submit" aria-label="Set status of ${name}">Set status</button>`,
  )}</td>
<td>${form(
    act('spend'),
    hidden,
    `<input class="narrow" type="number" min="0" name="amountSpent" value="${a.amountSpent}" aria-label="amount_spent of ${name} in cents">
<input class="narrow" type="number" min="0" name="spendCap" value="${a.spendCap}" aria-label="spend_cap of ${name} in cents (0: none)">
<button type="submit" aria-label="Set spend of ${name}">Set</button>`,
  )}</td>
<td>${form(
    act('today'),
    hidden,
    `<input class="narrow" type="number" min="0" max="100" step="0.1" name="factor" value="${a.todayFactor ?? 1}" aria-label="Factor of today's spend of ${name}">
<button type="submit" aria-label="Scale today's spend of ${name}">Scale</button>`,
  )}</td>
<td>${form(
    act('throttle-account'),
    hidden,
    `<input class="narrow" type="number" min="0" max="86400" name="seconds" value="60" aria-label="Seconds to throttle ${name}">
<button type="submit" aria-label="Throttle ${name}">Throttle</button>`,
  )}</td></tr>`;
}

function accountsSection(
  meta: MetaSandbox,
  basePath: string,
  act: (name: string) => string,
  pageNumber: number,
) {
  const { list, total } = meta.accounts({ offset: (pageNumber - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const link = (n: number, label: string) =>
    `<a href="${escapeHtml(`${basePath}/meta?page=${n}`)}">${label}</a>`;
  return `<section aria-labelledby="accounts-heading">
<h2 id="accounts-heading">Ad accounts (${total})</h2>
<p class="muted">Amounts are in the currency's minor unit (cents), as Graph answers them; a spend cap of 0 means none.
Today's factor scales what the account delivers today in its time zone (0: nothing spent today).</p>
<div class="scroll"><table>
<thead><tr><th scope="col">Account</th><th scope="col">Status</th><th scope="col">Spent / cap</th><th scope="col">Today</th><th scope="col">Throttle (s)</th></tr></thead>
<tbody>${list.map((a) => accountRow(a, basePath, act, pageNumber)).join('\n')}</tbody></table></div>
<nav aria-label="Account pages"><p>${pageNumber > 1 ? link(pageNumber - 1, '← Previous page') : ''}
Page ${pageNumber} of ${pages}
${pageNumber < pages ? link(pageNumber + 1, 'Next page →') : ''}</p></nav>
</section>`;
}

function statusForm(action: string, hidden: Record<string, string>, name: string, current: EffectiveStatus) {
  const choices = EFFECTIVE_STATUSES.map(
    (s) => `<option${s === current ? ' selected' : ''}>${s}</option>`,
  ).join('');
  return form(
    action,
    hidden,
    `<select name="status" aria-label="effective_status of ${escapeHtml(name)}">${choices}</select>
<input type="text" name="issue" placeholder="Issue text (optional)" aria-label="Issue of ${escapeHtml(name)}">
<button type="submit" aria-label="Set status of ${escapeHtml(name)}">Set</button>`,
  );
}

function detailSection(
  account: MetaAccountDetail,
  act: (name: string) => string,
  pageNumber: number,
): string {
  const hidden = (id: string) => ({ id, account: account.accountId, page: String(pageNumber) });
  const issues = (list: { error_summary: string }[]) =>
    escapeHtml(list.map((i) => i.error_summary).join('; '));
  const adSets = account.adSets
    .map(
      (
        s,
      ) => `<tr><th scope="row">${escapeHtml(s.name)}<br><span class="muted">${s.id} · ${escapeHtml(s.campaignName)} · ${s.dailyBudget} a day</span></th>
<td>${s.effectiveStatus}<br><span class="muted">${issues(s.issues)}</span></td><td>${statusForm(act('adset-status'), hidden(s.id), s.name, s.effectiveStatus)}</td></tr>`,
    )
    .join('\n');
  const ads = account.ads
    .slice(0, 100)
    .map(
      (
        a,
      ) => `<tr><th scope="row">${escapeHtml(a.name)}<br><span class="muted">${a.id} · ad set ${a.adSetId}</span></th>
<td>${a.effectiveStatus}<br><span class="muted">${issues(a.issues)}</span></td><td>${statusForm(act('ad-status'), hidden(a.id), a.name, a.effectiveStatus)}</td></tr>`,
    )
    .join('\n');
  const head =
    '<thead><tr><th scope="col">Name</th><th scope="col">effective_status</th><th scope="col">Change</th></tr></thead>';
  return `<section aria-labelledby="detail-heading">
<h2 id="detail-heading">${escapeHtml(account.name)} — ad sets and ads</h2>
<p class="muted">An ad set delivers only while ACTIVE. DISAPPROVED and WITH_ISSUES add issues_info (the text, or Meta-like wording);
a DISAPPROVED ad also gets ad_review_feedback.</p>
<h3>Ad sets (${account.adSets.length})</h3>
<div class="scroll"><table>${head}<tbody>${adSets}</tbody></table></div>
<h3>Ads (${account.ads.length}${account.ads.length > 100 ? ', the first 100' : ''})</h3>
<div class="scroll"><table>${head}<tbody>${ads}</tbody></table></div>
</section>`;
}

/** The Meta line on the sandbox home page. */
export function metaSummary(meta: MetaSandbox, basePath: string): string {
  const { total } = meta.accounts({ limit: 1 });
  const tokens = meta.tokens().filter((t) => t.valid).length;
  return `<section aria-labelledby="meta-summary-heading"><h2 id="meta-summary-heading">Meta</h2>
<p>${meta.users().length} Facebook users, ${total} ad accounts, ${tokens} working tokens, ${meta.calls().calls} Graph calls.
<a href="${escapeHtml(`${basePath}/meta`)}">Open the Meta sandbox</a></p></section>`;
}

export function registerMetaPage(app: FastifyInstance, meta: MetaSandbox, basePath: string): void {
  const act = (name: string) => `${basePath}/meta/${name}`;

  app.get<{ Querystring: { account?: string; page?: string; notice?: string } }>(
    '/meta',
    async (request, reply) => {
      const { total } = meta.accounts({ limit: 1 });
      const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
      const pageNumber = Math.min(pages, Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1));
      const account =
        meta.account(request.query.account ?? HOODIE_ACCOUNT_ID) ?? meta.account(HOODIE_ACCOUNT_ID);
      const notice = request.query.notice;
      const body = `${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
<p><a href="${escapeHtml(basePath)}">← Sandbox home</a></p>
${appSection(meta, act)}
${meta
  .users()
  .map((user) => userSection(user, act))
  .join('\n')}
${accountsSection(meta, basePath, act, pageNumber)}
${account ? detailSection(account, act, pageNumber) : ''}`;
      return reply.type('text/html').send(page('Meta — Vigil sandbox', body));
    },
  );

  app.post<{ Params: { action: string }; Body: Body }>('/meta/:action', async (request, reply) => {
    const back = (notice: string) => {
      const query = new URLSearchParams({
        ...(request.body?.account ? { account: request.body.account } : {}),
        ...(request.body?.page ? { page: request.body.page } : {}),
        notice,
      });
      return `${basePath}/meta?${query}`;
    };
    const action = ACTIONS[request.params.action];
    if (!action) return reply.redirect(back('Unknown action.'), 303);
    try {
      return reply.redirect(back(action(meta, request.body)), 303);
    } catch (error) {
      if (!(error instanceof MetaActionError)) throw error;
      return reply.redirect(back(error.message), 303);
    }
  });
}
