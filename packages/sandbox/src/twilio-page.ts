import type { FastifyInstance } from 'fastify';
import { escapeHtml, page } from './html.ts';
import { PhoneActionError } from './twilio-account.ts';
import { CALL_ACTIONS } from './twilio-api.ts';
import type { SandboxCall } from './twilio-calls.ts';
import type { SandboxMessage } from './twilio-messaging.ts';
import type { TwilioSandbox } from './twilio.ts';

/**
 * The pretend phone at `${basePath}/phone`: the texts Vigil sent and received, a form to text back, and the
 * calls with buttons to answer, press keys and hang up. Plain forms that post and redirect back, so it works
 * without a client framework and browser tests can drive it by role and name.
 */
function when(iso: string): string {
  return `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC`;
}

const DIRECTION_LABEL: Record<SandboxMessage['direction'], string> = {
  inbound: 'Received',
  'outbound-api': 'Sent by Vigil',
  'outbound-reply': 'Reply',
};

function messagesTable(messages: SandboxMessage[]): string {
  if (messages.length === 0) return '<p class="muted">No text messages yet.</p>';
  const rows = messages
    .map(
      (m) => `<tr>
<td>${escapeHtml(when(m.createdAt))}</td>
<td>${DIRECTION_LABEL[m.direction]}</td>
<td>${escapeHtml(m.from)}</td>
<td>${escapeHtml(m.to)}</td>
<td>${escapeHtml(m.status)}${m.errorCode === null ? '' : ` (error ${m.errorCode})`}</td>
<td>${escapeHtml(m.body)}</td>
</tr>`,
    )
    .join('\n');
  return `<table><caption class="muted" style="text-align:left">Newest first.</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Direction</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Message</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function replyForm(messages: SandboxMessage[], basePath: string): string {
  const lastRecipient = messages.find((m) => m.direction !== 'inbound')?.to ?? '';
  return `<form method="post" action="${escapeHtml(`${basePath}/phone/reply`)}">
<label for="reply-from">Reply from</label>
<input id="reply-from" name="from" type="tel" required value="${escapeHtml(lastRecipient)}" placeholder="+15551234567" autocomplete="off" aria-describedby="reply-hint">
<label for="reply-body">Message</label>
<input id="reply-body" name="body" type="text" required maxlength="1600" autocomplete="off" aria-describedby="reply-hint">
<p id="reply-hint" class="muted">Texts Vigil's number as this person. STOP (also UNSUBSCRIBE, CANCEL, END, QUIT, STOPALL, REVOKE, OPTOUT) opts the number out of texts; START, YES or UNSTOP opts it back in.</p>
<p><button class="primary" type="submit">Send reply</button></p>
</form>`;
}

function callControls(call: SandboxCall, basePath: string): string {
  const action = (name: string) => escapeHtml(`${basePath}/phone/calls/${call.sid}/${name}`);
  if (call.status === 'queued' || call.status === 'ringing') {
    return `<form method="post" action="${action('answer')}">
<button class="primary" type="submit">Answer</button>
<button type="submit" formaction="${action('no-answer')}">Leave unanswered</button>
<button type="submit" formaction="${action('busy')}">Busy</button>
</form>`;
  }
  if (call.status !== 'in-progress') return '';
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#']
    .map(
      (key) =>
        `<button type="submit" name="digits" value="${escapeHtml(key)}" aria-label="Press ${escapeHtml(key)}">${escapeHtml(key)}</button>`,
    )
    .join('');
  return `<form method="post" action="${action('press')}">
<p class="muted">${call.gathering ? 'Listening for keys.' : 'Not listening for keys right now.'}</p>
<div class="keypad" role="group" aria-label="Keypad">${keys}</div>
<p><button type="submit" formaction="${action('hangup')}">Hang up</button></p>
</form>`;
}

function callCard(call: SandboxCall, basePath: string): string {
  const spoken = call.spoken.length
    ? `<ol class="spoken">${call.spoken
        .map(
          (s) =>
            `<li><span class="muted">${escapeHtml(s.language)}${s.voice ? `, ${escapeHtml(s.voice)}` : ''}:</span> <q lang="${escapeHtml(s.language)}">${escapeHtml(s.text)}</q></li>`,
        )
        .join('')}</ol>`
    : '<p class="muted">Nothing spoken yet.</p>';
  const facts = [
    `Placed ${when(call.createdAt)}`,
    call.answeredAt && `answered ${when(call.answeredAt)}`,
    call.endedAt && `ended ${when(call.endedAt)} (${call.duration} s)`,
    call.digits.length > 0 && `keys pressed: ${call.digits.join(', ')}`,
  ].filter(Boolean);
  const titleId = `call-${call.sid}`;
  return `<article class="call" aria-labelledby="${titleId}">
<h3 id="${titleId}">Call to ${escapeHtml(call.to)} — ${escapeHtml(call.status)}</h3>
<p class="muted">${escapeHtml(facts.join(' · '))}</p>
${call.error ? `<p role="alert">${escapeHtml(call.error)}</p>` : ''}
${spoken}
${callControls(call, basePath)}
</article>`;
}

// Refreshes every 2 s to show progress, but never while a field has focus or holds typed text.
const AUTO_REFRESH = `<script>
let edited = false;
document.addEventListener('input', () => { edited = true; });
if (location.search) history.replaceState(null, '', location.pathname);
setInterval(() => {
  const active = document.activeElement;
  if (!edited && !(active && active.matches('input, textarea, select'))) location.reload();
}, 2000);
</script>`;

function phonePage(phone: TwilioSandbox, basePath: string, notice: string | undefined): string {
  const messages = phone.messages();
  const calls = phone.calls();
  return `${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
<p><a href="${escapeHtml(basePath)}">← Sandbox home</a></p>
<section aria-labelledby="sms-heading">
<h1 id="sms-heading">Text messages</h1>
<p class="muted">Vigil's Twilio number is <code>${escapeHtml(phone.phoneNumber)}</code>. The page refreshes itself every 2 seconds.</p>
${replyForm(messages, basePath)}
${messagesTable(messages)}
</section>
<section aria-labelledby="calls-heading">
<h2 id="calls-heading">Calls</h2>
${calls.length ? calls.map((call) => callCard(call, basePath)).join('\n') : '<p class="muted">No calls yet. Calls Vigil places ring here.</p>'}
</section>
${AUTO_REFRESH}`;
}

/** The phone's line on the sandbox home page. */
export function phoneSummary(phone: TwilioSandbox, basePath: string): string {
  const ringing = phone.calls({ status: 'ringing' }).length;
  return `<section aria-labelledby="phone-heading"><h2 id="phone-heading">Phone (Twilio)</h2>
<p>${phone.messages().length} text messages, ${phone.calls().length} calls${ringing ? `, <strong>${ringing} ringing</strong>` : ''}. <a href="${escapeHtml(`${basePath}/phone`)}">Open the phone</a></p></section>`;
}

export function registerPhonePage(app: FastifyInstance, phone: TwilioSandbox, basePath: string): void {
  const back = (notice?: string) =>
    `${basePath}/phone${notice ? `?notice=${encodeURIComponent(notice)}` : ''}`;
  const attempt = async (work: () => Promise<unknown>) => {
    try {
      await work();
      return back();
    } catch (error) {
      if (error instanceof PhoneActionError) return back(error.message);
      throw error;
    }
  };

  app.get<{ Querystring: { notice?: string } }>('/phone', async (request, reply) =>
    reply
      .type('text/html')
      .send(page('Phone — Vigil sandbox', phonePage(phone, basePath, request.query.notice))),
  );

  app.post<{ Body: { from?: string; body?: string } }>('/phone/reply', async (request, reply) =>
    reply.redirect(
      await attempt(() => phone.reply((request.body?.from ?? '').trim(), request.body?.body ?? '')),
      303,
    ),
  );

  app.post<{ Params: { sid: string; action: string }; Body: { digits?: string } }>(
    '/phone/calls/:sid/:action',
    async (request, reply) => {
      const act = CALL_ACTIONS[request.params.action];
      if (!act) return reply.redirect(back('Unknown action.'), 303);
      return reply.redirect(
        await attempt(() => act(phone, request.params.sid, request.body?.digits ?? '')),
        303,
      );
    },
  );
}
