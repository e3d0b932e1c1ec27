import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, page } from './html.ts';
import { FieldError } from './stripe-cards.ts';
import { StripeActionError } from './stripe-errors.ts';
import {
  cardFields,
  emailField,
  errorAlert,
  paymentValues,
  testCardsList,
  type FormError,
  type PaymentValues,
} from './stripe-html.ts';
import type { CheckoutSessionRecord } from './stripe-objects.ts';
import type { StripeSandbox } from './stripe.ts';

/**
 * Hosted Checkout at `${basePath}/stripe/checkout/:id` (a Checkout Session's `url`): the plan and its price,
 * the email and card form, the test cards, and a link back to the session's cancel_url. Paying redirects
 * (303) to the success_url; a decline keeps the person on the page with the error, free to try another card.
 */
type Body = Record<string, string | undefined> | undefined;

function backLink(url: string | null, label: string): string {
  return url ? `<p><a href="${escapeHtml(url)}">${label}</a></p>` : '';
}

function closedPage(session: CheckoutSessionRecord): string {
  if (session.status === 'complete') {
    return `<section aria-labelledby="checkout-heading">
<h1 id="checkout-heading">You're subscribed</h1>
<p>This checkout is complete: the payment went through and the subscription is active.</p>
${backLink(session.successUrl?.replaceAll('{CHECKOUT_SESSION_ID}', session.id) ?? null, 'Continue to Vigil →')}
</section>`;
  }
  return `<section aria-labelledby="checkout-heading">
<h1 id="checkout-heading">This checkout has expired</h1>
<p>Nothing was charged. Go back to Vigil and choose your plan again to start a new checkout.</p>
${backLink(session.cancelUrl, '← Back to Vigil')}
</section>`;
}

function formPage(
  stripe: StripeSandbox,
  session: CheckoutSessionRecord,
  basePath: string,
  values: PaymentValues,
  error: FormError | null,
): string {
  const price = stripe.priceView(stripe.account.price(session.price));
  const prefilled = stripe.account.checkoutEmail(session);
  const email = prefilled.locked ? (prefilled.email ?? '') : values.email || prefilled.email || '';
  const quantity = session.quantity > 1 ? ` × ${session.quantity}` : '';
  const action = `${basePath}/stripe/checkout/${session.id}`;
  return `${backLink(session.cancelUrl, '← Back to Vigil')}
<section aria-labelledby="checkout-heading">
<h1 id="checkout-heading">Subscribe to ${escapeHtml(price.product)}</h1>
<p><strong>${escapeHtml(price.label)}</strong>${quantity}</p>
<p class="muted">Sandbox checkout in test mode: no real card is charged.</p>
<form method="post" action="${escapeHtml(action)}" aria-labelledby="checkout-heading">
${errorAlert(error, 'pay-error')}
${emailField('pay', email, prefilled.locked, error)}
${cardFields('pay', values, error)}
<p><button class="primary" type="submit">Subscribe</button></p>
</form>
</section>
<section aria-labelledby="test-cards-heading">
<h2 id="test-cards-heading">Test cards</h2>
${testCardsList()}
</section>`;
}

export function registerStripeCheckoutPage(
  app: FastifyInstance,
  stripe: StripeSandbox,
  basePath: string,
): void {
  const title = 'Checkout — Vigil sandbox';
  const notFound = (reply: FastifyReply) =>
    reply
      .code(404)
      .type('text/html')
      .send(
        page(
          title,
          '<section><h1>This checkout link is not valid</h1><p>Go back to Vigil and choose your plan again.</p></section>',
        ),
      );

  app.get<{ Params: { id: string } }>('/stripe/checkout/:id', async (request, reply) => {
    stripe.account.expireDue();
    const session = stripe.account.findSession(request.params.id);
    if (!session) return notFound(reply);
    const body =
      session.status === 'open' ? formPage(stripe, session, basePath, {}, null) : closedPage(session);
    return reply.type('text/html').send(page(title, body));
  });

  app.post<{ Params: { id: string }; Body: Body }>('/stripe/checkout/:id', async (request, reply) => {
    const values = paymentValues(request.body);
    // Shown again after a refusal, everything but the CVC, which a page never echoes.
    const shown = { ...values, cvc: '' };
    const show = (session: CheckoutSessionRecord, error: FormError | null) =>
      reply
        .type('text/html')
        .send(
          page(
            title,
            session.status === 'open'
              ? formPage(stripe, session, basePath, shown, error)
              : closedPage(session),
          ),
        );
    try {
      const outcome = stripe.payCheckout(request.params.id, {
        card: values.number ?? '',
        expiry: values.expiry,
        cvc: values.cvc,
        email: values.email,
        name: values.name,
      });
      const session = stripe.account.checkoutSession(request.params.id);
      if (outcome.redirect) return reply.redirect(outcome.redirect, 303);
      return show(session, { field: 'number', message: outcome.message });
    } catch (error) {
      if (!(error instanceof StripeActionError)) throw error;
      const session = stripe.account.findSession(request.params.id);
      if (!session) return notFound(reply);
      return show(session, {
        field: error instanceof FieldError ? error.field : null,
        message: error.message,
      });
    }
  });
}
