import type { FastifyInstance } from 'fastify';
import { escapeHtml, page } from './html.ts';
import { spacedNumber, TEST_CARDS } from './stripe-cards.ts';
import { StripeActionError } from './stripe-errors.ts';
import { day, statusLabel, testCardsList, when } from './stripe-html.ts';
import type { StripeCustomerView, StripeEventView, StripeSandbox, StripeSubscriptionView } from './stripe.ts';

/**
 * The Stripe control page at `${basePath}/stripe`: the account's prices, open checkouts, customers with their
 * subscriptions (each with "Advance to next renewal" on its test clock), and the event log with every
 * delivery, "Re-send" and "Send twice", and holding webhooks to release them in order or reversed. Plain
 * forms that post and redirect back.
 */
type Body = Record<string, string | undefined> | undefined;

const EVENTS_SHOWN = 50;

/** What each button does, by the name in its form's action; answers the notice to show (or where to go). */
const ACTIONS: Record<string, (stripe: StripeSandbox, body: Body) => Promise<string | { location: string }>> =
  {
    advance: async (stripe, body) => {
      const { events, subscription } = stripe.advanceSubscription(body?.subscription ?? '');
      return `${subscription.id} is ${statusLabel(subscription.status).toLowerCase()} at ${when(subscription.clock)}; sent ${events.map((e) => e.type).join(', ') || 'no events'}.`;
    },
    portal: async (stripe, body) => ({ location: stripe.openPortal(body?.customer ?? '', body?.returnUrl) }),
    resend: async (stripe, body) => {
      const delivery = await stripe.resendEvent(body?.event ?? '');
      return `Re-sent ${body?.event}: ${delivery.status === null ? delivery.error : `HTTP ${delivery.status}`}.`;
    },
    duplicate: async (stripe, body) => {
      const deliveries = await stripe.duplicateEvent(body?.event ?? '');
      const outcomes = deliveries
        .map((d) => (d.status === null ? d.error : `HTTP ${d.status}`))
        .join(' and ');
      return `Sent ${body?.event} twice at once: ${outcomes}.`;
    },
    hold: async (stripe, body) => {
      const hold = body?.hold === 'true';
      stripe.holdWebhooks(hold);
      return hold
        ? 'Webhooks are held: events are recorded but not sent.'
        : 'Webhooks are sent again as events happen.';
    },
    release: async (stripe, body) => {
      const order = body?.order === 'reverse' ? 'reverse' : 'created';
      const released = await stripe.releaseWebhooks(order);
      return `Released ${released.length} held events${order === 'reverse' ? ', newest first' : ''}.`;
    },
  };

function form(action: string, hidden: Record<string, string>, inner: string, label?: string): string {
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  return `<form method="post" action="${escapeHtml(action)}" class="inline"${label ? ` aria-label="${escapeHtml(label)}"` : ''}>${fields}${inner}</form>`;
}

function accountSection(stripe: StripeSandbox, act: (name: string) => string): string {
  const held = stripe.webhooksHeld;
  const count = stripe.heldEventCount;
  return `<section aria-labelledby="stripe-heading">
<h1 id="stripe-heading">Stripe</h1>
<p class="muted">Stands in for Stripe's API (<code>${escapeHtml(stripe.apiUrl)}</code>, Stripe's https://api.stripe.com) for the official SDK:
<code>new Stripe(secretKey, { host: '127.0.0.1', port: ${stripe.port}, protocol: 'http' })</code>. Checkout and the customer
portal are pages of this sandbox. Webhooks go to <code>${escapeHtml(stripe.webhookUrl)}</code>, signed with the endpoint's secret.</p>
<h2>Webhooks</h2>
<p>${held ? `<strong>Held</strong>: ${count} events wait to be sent.` : 'Sent as events happen.'}${!held && count ? ` ${count} held events wait to be released.` : ''}</p>
${form(
  act('hold'),
  { hold: String(!held) },
  `<button type="submit">${held ? 'Stop holding webhooks' : 'Hold webhooks'}</button>`,
)}
${
  count
    ? form(
        act('release'),
        {},
        `<button type="submit" name="order" value="created">Release in order</button>
<button type="submit" name="order" value="reverse">Release in reverse order</button>`,
        'Release held webhooks',
      )
    : ''
}
<h2>Test cards</h2>
${testCardsList()}
</section>`;
}

function pricesSection(stripe: StripeSandbox): string {
  const rows = stripe
    .prices()
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.id)}</code></td><td>${escapeHtml(p.label)}</td><td>${p.lookupKey ? `<code>${escapeHtml(p.lookupKey)}</code>` : ''}</td></tr>`,
    )
    .join('\n');
  const open = stripe.checkoutSessions({ status: 'open' });
  const checkouts = open.length
    ? `<ul>${open
        .map(
          (s) =>
            `<li><a href="${escapeHtml(s.url)}">${escapeHtml(s.price.label)}</a> for ${escapeHtml(s.email ?? 'a new customer')} — expires ${escapeHtml(when(s.expiresAt))}</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No open checkout.</p>';
  return `<section aria-labelledby="prices-heading">
<h2 id="prices-heading">Prices</h2>
<div class="scroll"><table><thead><tr><th scope="col">Price</th><th scope="col">Plan</th><th scope="col">Lookup key</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h3>Open checkouts</h3>
${checkouts}
</section>`;
}

function subscriptionRow(s: StripeSubscriptionView, act: (name: string) => string): string {
  const live = s.status === 'active' || s.status === 'past_due';
  const end = s.endedAt
    ? `Ended ${day(s.endedAt)}`
    : `${s.cancelAtPeriodEnd ? 'Ends' : 'Renews'} ${day(s.currentPeriodEnd)}`;
  const invoice = s.latestInvoice
    ? `${statusLabel(s.latestInvoice.status)}, ${s.latestInvoice.attemptCount} attempt(s)${s.latestInvoice.nextPaymentAttempt ? `, retry ${day(s.latestInvoice.nextPaymentAttempt)}` : ''}`
    : '';
  return `<tr><th scope="row"><code>${escapeHtml(s.id)}</code><br><span class="muted">${escapeHtml(s.price.label)}</span></th>
<td>${statusLabel(s.status)}</td><td>${end}<br><span class="muted">Clock ${escapeHtml(when(s.clock))}</span></td>
<td>${escapeHtml(s.card?.label ?? 'none')}</td><td>${escapeHtml(invoice)}</td>
<td>${live ? form(act('advance'), { subscription: s.id }, `<button type="submit" aria-label="Advance ${escapeHtml(s.id)} to next renewal">Advance to next renewal</button>`) : ''}</td></tr>`;
}

function customersSection(
  customers: StripeCustomerView[],
  act: (name: string) => string,
  back: string,
): string {
  if (!customers.length) {
    return `<section aria-labelledby="customers-heading"><h2 id="customers-heading">Customers</h2>
<p class="muted">No customers yet: Vigil makes one when someone first chooses a paid plan.</p></section>`;
  }
  const blocks = customers
    .map((c) => {
      const rows = c.subscriptions.map((s) => subscriptionRow(s, act)).join('\n');
      const table = rows
        ? `<div class="scroll"><table><thead><tr><th scope="col">Subscription</th><th scope="col">Status</th><th scope="col">Period</th><th scope="col">Card</th><th scope="col">Latest invoice</th><th scope="col">Test clock</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
        : '<p class="muted">No subscription.</p>';
      return `<h3>${escapeHtml(c.email ?? c.name ?? c.id)} <span class="muted">(${escapeHtml(c.id)})</span></h3>
${table}
${form(act('portal'), { customer: c.id, returnUrl: back }, `<button type="submit">Open customer portal</button>`, `Portal of ${c.email ?? c.id}`)}`;
    })
    .join('\n');
  return `<section aria-labelledby="customers-heading"><h2 id="customers-heading">Customers (${customers.length})</h2>
<p class="muted">"Advance to next renewal" moves the subscription's own test clock to its period's end (or, when past due, to
the final payment retry) and does what Stripe does then.</p>
${blocks}</section>`;
}

function deliveryText(event: StripeEventView): string {
  if (!event.deliveries.length) return event.status === 'held' ? 'Held' : 'Not sent yet';
  return event.deliveries
    .map(
      (d) =>
        `${escapeHtml(when(d.at))} ${d.trigger}: ${d.status === null ? escapeHtml(d.error ?? 'no answer') : `HTTP ${d.status}`}`,
    )
    .join('<br>');
}

function eventsSection(stripe: StripeSandbox, act: (name: string) => string): string {
  const events = stripe.events({ limit: EVENTS_SHOWN });
  const rows = events
    .map(
      (
        e,
      ) => `<tr><th scope="row"><code>${escapeHtml(e.type)}</code><br><span class="muted">${escapeHtml(e.id)} · ${escapeHtml(e.objectId)}</span></th>
<td>${escapeHtml(when(e.created))}</td><td>${e.status}</td><td>${deliveryText(e)}</td>
<td>${form(act('resend'), { event: e.id }, `<button type="submit" aria-label="Re-send ${escapeHtml(e.id)}">Re-send</button>`)}
${form(act('duplicate'), { event: e.id }, `<button type="submit" aria-label="Send ${escapeHtml(e.id)} twice">Send twice</button>`)}</td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="events-heading">
<h2 id="events-heading">Events</h2>
${
  events.length
    ? `<p class="muted">Newest first (the last ${EVENTS_SHOWN}). <a href="">Refresh</a></p>
<div class="scroll"><table><thead><tr><th scope="col">Event</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Deliveries</th><th scope="col">Send again</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : '<p class="muted">No events yet. <a href="">Refresh</a></p>'
}
</section>`;
}

/** The Stripe line on the sandbox home page. */
export function stripeSummary(stripe: StripeSandbox, basePath: string): string {
  const subscriptions = stripe.subscriptions();
  const active = subscriptions.filter((s) => s.status === 'active' || s.status === 'past_due').length;
  const cards = TEST_CARDS.filter((c) => c.number !== '5555555555554444')
    .map((c) => `<code>${spacedNumber(c.number)}</code> ${escapeHtml(c.description.toLowerCase())}`)
    .join('; ');
  return `<section aria-labelledby="stripe-summary-heading"><h2 id="stripe-summary-heading">Stripe</h2>
<p>${stripe.customers().length} customers, ${active} live subscriptions, ${stripe.events().length} events${stripe.webhooksHeld ? ' (webhooks held)' : ''}.
<a href="${escapeHtml(`${basePath}/stripe`)}">Open the Stripe sandbox</a></p>
<p class="muted">Test cards: ${cards}.</p></section>`;
}

export function registerStripePage(app: FastifyInstance, stripe: StripeSandbox, basePath: string): void {
  const act = (name: string) => `${basePath}/stripe/${name}`;

  app.get<{ Querystring: { notice?: string } }>('/stripe', async (request, reply) => {
    const notice = request.query.notice;
    const here = `${request.protocol}://${request.host}${basePath}/stripe`;
    const body = `${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
<p><a href="${escapeHtml(basePath)}">← Sandbox home</a></p>
${accountSection(stripe, act)}
${pricesSection(stripe)}
${customersSection(stripe.customers(), act, here)}
${eventsSection(stripe, act)}`;
    return reply.type('text/html').send(page('Stripe — Vigil sandbox', body));
  });

  app.post<{ Params: { action: string }; Body: Body }>('/stripe/:action', async (request, reply) => {
    const back = (notice: string) => `${basePath}/stripe?${new URLSearchParams({ notice })}`;
    const action = ACTIONS[request.params.action];
    if (!action) return reply.redirect(back('Unknown action.'), 303);
    try {
      const outcome = await action(stripe, request.body);
      return reply.redirect(typeof outcome === 'string' ? back(outcome) : outcome.location, 303);
    } catch (error) {
      if (!(error instanceof StripeActionError)) throw error;
      return reply.redirect(back(error.message), 303);
    }
  });
}
