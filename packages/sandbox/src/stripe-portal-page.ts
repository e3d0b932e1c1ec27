import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, page } from './html.ts';
import { FieldError } from './stripe-cards.ts';
import { StripeActionError } from './stripe-errors.ts';
import {
  cardFields,
  day,
  errorAlert,
  paymentValues,
  statusLabel,
  testCardsList,
  type FormError,
} from './stripe-html.ts';
import { formatMoney, type PortalSessionRecord } from './stripe-objects.ts';
import type { StripeSandbox, StripeSubscriptionView } from './stripe.ts';

/**
 * The customer portal at `${basePath}/stripe/portal/:id` (a billing portal session's `url`): the customer's
 * subscription, card and invoices, and forms to switch plan, cancel at the period's end or take it back, and
 * save a new card (which pays a past_due subscription's open invoice). Plain forms that post and redirect
 * back. A session lapses after 5 minutes without activity, as Stripe's do. Also each invoice's page
 * (`hosted_invoice_url`) at `${basePath}/stripe/invoices/:id`.
 */
type Body = Record<string, string | undefined> | undefined;

const TITLE = 'Billing — Vigil sandbox';

function message(
  reply: FastifyReply,
  status: number,
  heading: string,
  text: string,
  link = '',
): FastifyReply {
  return reply
    .code(status)
    .type('text/html')
    .send(page(TITLE, `<section><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p>${link}</section>`));
}

function returnLink(session: PortalSessionRecord): string {
  return session.returnUrl ? `<p><a href="${escapeHtml(session.returnUrl)}">← Return to Vigil</a></p>` : '';
}

function renewal(subscription: StripeSubscriptionView): string {
  const end = day(subscription.currentPeriodEnd);
  if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
    return `Ended on ${day(subscription.endedAt ?? subscription.currentPeriodEnd)}`;
  }
  if (subscription.cancelAtPeriodEnd) return `Ends on ${end}`;
  if (subscription.status === 'past_due') {
    const invoice = subscription.latestInvoice;
    const amount = invoice ? `${formatMoney(invoice.amountDue, invoice.currency)} ` : '';
    return `The last payment failed: save a card below to pay the open invoice ${amount}now.`;
  }
  return `Renews on ${end}`;
}

function subscriptionSection(
  stripe: StripeSandbox,
  subscription: StripeSubscriptionView,
  action: (name: string) => string,
): string {
  const id = escapeHtml(subscription.id);
  const live = subscription.status === 'active' || subscription.status === 'past_due';
  const hidden = `<input type="hidden" name="subscription" value="${id}">`;
  const others = stripe.prices().filter((price) => price.id !== subscription.price.id);
  const switcher =
    live && others.length
      ? `<form method="post" action="${escapeHtml(action('switch-plan'))}" class="inline">${hidden}
<label for="plan-${id}">Change plan</label>
<select id="plan-${id}" name="price">${others.map((price) => `<option value="${escapeHtml(price.id)}">${escapeHtml(price.label)}</option>`).join('')}</select>
<button type="submit">Switch plan</button></form>`
      : '';
  const cancel = !live
    ? ''
    : subscription.cancelAtPeriodEnd
      ? `<form method="post" action="${escapeHtml(action('resume'))}" class="inline">${hidden}
<button class="primary" type="submit">Don't cancel</button>
<span class="muted">Keeps the plan renewing on ${day(subscription.currentPeriodEnd)}.</span></form>`
      : `<form method="post" action="${escapeHtml(action('cancel'))}" class="inline">${hidden}
<button type="submit">Cancel plan</button>
<span class="muted">The plan stays active until ${day(subscription.currentPeriodEnd)}.</span></form>`;
  return `<section aria-labelledby="sub-${id}">
<h2 id="sub-${id}">${escapeHtml(subscription.price.product)}</h2>
<p>${escapeHtml(subscription.price.label.split(' — ')[1] ?? subscription.price.label)} · <strong>${statusLabel(subscription.status)}</strong></p>
<p>${escapeHtml(renewal(subscription))}</p>
<p>Card: ${escapeHtml(subscription.card?.label ?? 'none')}</p>
${switcher}
${cancel}
</section>`;
}

function invoicesSection(subscriptions: StripeSubscriptionView[]): string {
  const invoices = subscriptions
    .flatMap((subscription) => subscription.invoices)
    .filter((invoice) => invoice.status !== 'draft')
    .sort((a, b) => b.created.localeCompare(a.created));
  const rows = invoices
    .map(
      (
        invoice,
      ) => `<tr><td>${day(invoice.created)}</td><td>${formatMoney(invoice.amountDue, invoice.currency)}</td>
<td>${statusLabel(invoice.status)}</td><td><a href="${escapeHtml(invoice.url)}">View invoice ${escapeHtml(invoice.number ?? '')}</a></td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="invoices-heading">
<h2 id="invoices-heading">Invoice history</h2>
${
  invoices.length
    ? `<div class="scroll"><table><thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Invoice</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : '<p class="muted">No invoices yet.</p>'
}
</section>`;
}

function portalPage(
  stripe: StripeSandbox,
  session: PortalSessionRecord,
  basePath: string,
  shown: { notice?: string; error?: FormError | null },
): string {
  const customer = stripe.account.customer(session.customer);
  const action = (name: string) => `${basePath}/stripe/portal/${session.id}/${name}`;
  const subscriptions = stripe
    .subscriptions({ customerId: customer.id })
    .filter((s) => s.status !== 'incomplete' && s.status !== 'incomplete_expired');
  const current = subscriptions.filter((s) => s.status !== 'canceled');
  const shownSubscriptions = current.length ? current : subscriptions.slice(0, 1);
  const card =
    stripe.cardView(stripe.account.findPaymentMethod(customer.defaultPaymentMethod)) ?? current[0]?.card;
  return `${returnLink(session)}
<section aria-labelledby="portal-heading">
<h1 id="portal-heading">Billing</h1>
<p>${escapeHtml(customer.email ?? customer.name ?? customer.id)}</p>
${shown.notice ? `<p role="status" class="notice">${escapeHtml(shown.notice)}</p>` : ''}
${shown.error && shown.error.field === null ? errorAlert(shown.error, 'portal-error') : ''}
</section>
${shownSubscriptions.length ? shownSubscriptions.map((s) => subscriptionSection(stripe, s, action)).join('\n') : '<section><p>No subscription.</p></section>'}
<section aria-labelledby="card-heading">
<h2 id="card-heading">Payment method</h2>
<p>Current card: ${escapeHtml(card?.label ?? 'none')}${card ? `, expires ${String(card.expMonth).padStart(2, '0')} / ${String(card.expYear).slice(-2)}` : ''}</p>
<form method="post" action="${escapeHtml(action('card'))}" aria-labelledby="card-heading">
${shown.error && shown.error.field !== null ? errorAlert(shown.error, 'card-error') : ''}
${cardFields('card', {}, shown.error ?? null)}
<p><button class="primary" type="submit">Save card</button></p>
</form>
<details><summary>Test cards</summary>${testCardsList()}</details>
</section>
${invoicesSection(subscriptions)}`;
}

/** What each portal button does, by the name in its form's action; answers the notice to show. */
const ACTIONS: Record<string, (stripe: StripeSandbox, session: PortalSessionRecord, body: Body) => string> = {
  'switch-plan': (stripe, _session, body) => {
    const subscription = stripe.switchPrice(body?.subscription ?? '', body?.price ?? '');
    return `You're now on ${subscription.price.label}.`;
  },
  cancel: (stripe, _session, body) => {
    const subscription = stripe.setCancelAtPeriodEnd(body?.subscription ?? '', true);
    return `Your plan is canceled: it stays active until ${day(subscription.currentPeriodEnd)}.`;
  },
  resume: (stripe, _session, body) => {
    const subscription = stripe.setCancelAtPeriodEnd(body?.subscription ?? '', false);
    return `Your plan renews on ${day(subscription.currentPeriodEnd)}.`;
  },
  card: (stripe, session, body) => {
    const values = paymentValues(body);
    return stripe.updateCard(session.customer, {
      card: values.number ?? '',
      expiry: values.expiry,
      cvc: values.cvc,
      name: values.name,
    }).message;
  },
};

export function registerStripePortalPage(
  app: FastifyInstance,
  stripe: StripeSandbox,
  basePath: string,
): void {
  const open = (reply: FastifyReply, id: string): PortalSessionRecord | null => {
    const session = stripe.account.usePortalSession(id);
    if (session === undefined) {
      message(reply, 404, 'This link is not valid', 'Open the billing portal again from Vigil.');
      return null;
    }
    if (session === 'expired') {
      const known = stripe.account.findPortalSession(id);
      message(
        reply,
        410,
        'This session has expired',
        'Billing portal links end after 5 minutes without activity. Open the billing portal again from Vigil.',
        known ? returnLink(known) : '',
      );
      return null;
    }
    return session;
  };

  app.get<{ Params: { id: string }; Querystring: { notice?: string; error?: string; field?: string } }>(
    '/stripe/portal/:id',
    async (request, reply) => {
      const session = open(reply, request.params.id);
      if (!session) return reply;
      const { notice, error, field } = request.query;
      const formError = error ? { field: (field as FormError['field']) ?? null, message: error } : null;
      return reply
        .type('text/html')
        .send(page(TITLE, portalPage(stripe, session, basePath, { notice, error: formError })));
    },
  );

  app.post<{ Params: { id: string; action: string }; Body: Body }>(
    '/stripe/portal/:id/:action',
    async (request, reply) => {
      const session = open(reply, request.params.id);
      if (!session) return reply;
      const back = (query: Record<string, string>) =>
        reply.redirect(`${basePath}/stripe/portal/${session.id}?${new URLSearchParams(query)}`, 303);
      const action = ACTIONS[request.params.action];
      if (!action) return back({ error: 'Unknown action.' });
      const subscription = request.body?.subscription;
      if (subscription && stripe.account.findSubscription(subscription)?.customer !== session.customer) {
        return back({ error: 'That subscription is not yours.' });
      }
      try {
        return back({ notice: action(stripe, session, request.body) });
      } catch (error) {
        if (!(error instanceof StripeActionError)) throw error;
        return back({ error: error.message, ...(error instanceof FieldError ? { field: error.field } : {}) });
      }
    },
  );

  app.get<{ Params: { id: string } }>('/stripe/invoices/:id', async (request, reply) => {
    const invoice = stripe.account.findInvoice(request.params.id);
    if (!invoice || invoice.status === 'draft') {
      return message(reply, 404, 'This invoice link is not valid', 'The invoice does not exist.');
    }
    const view = stripe.invoiceView(invoice);
    const price = stripe.priceView(stripe.account.price(invoice.price));
    const due =
      invoice.status === 'open'
        ? `<p>Payment failed ${view.attemptCount} time(s).${view.nextPaymentAttempt ? ` Next attempt ${day(view.nextPaymentAttempt)}.` : ''}
Update the card in the billing portal (from Vigil) to pay it.</p>`
        : '';
    return reply.type('text/html').send(
      page(
        `Invoice ${view.number ?? ''} — Vigil sandbox`,
        `<section aria-labelledby="invoice-heading">
<h1 id="invoice-heading">Invoice ${escapeHtml(view.number ?? '')}</h1>
<p><strong>${formatMoney(view.amountDue, view.currency)}</strong> · ${statusLabel(view.status)}</p>
<table><tbody>
<tr><th scope="row">Billed to</th><td>${escapeHtml(invoice.customerEmail ?? invoice.customer)}</td></tr>
<tr><th scope="row">Plan</th><td>${escapeHtml(price.label)}</td></tr>
<tr><th scope="row">Period</th><td>${day(view.periodStart)} – ${day(view.periodEnd)}</td></tr>
<tr><th scope="row">Issued</th><td>${day(view.created)}</td></tr>
<tr><th scope="row">Amount paid</th><td>${formatMoney(view.amountPaid, view.currency)}</td></tr>
</tbody></table>
${due}
</section>`,
      ),
    );
  });
}
