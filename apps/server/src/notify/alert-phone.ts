/**
 * What SMS and calls say, in each alert language (the languages of the monitor-service catalogue). Calls are
 * TwiML: `<Say language>` reads the words with Twilio's text-to-speech in that language, and `<Gather>` asks
 * for a key press that acknowledges the alert.
 */

interface Phrases {
  opened: (name: string, summary: string) => string;
  repeat: (name: string, summary: string) => string;
  resolved: (name: string) => string;
  pressOne: string;
  acknowledged: string;
  alreadyClosed: string;
  otherKey: string;
  ackLink: (link: string) => string;
  code: (code: string) => string;
  codeCall: (digits: string) => string;
}

const PHRASES: Record<string, Phrases> = {
  en: {
    opened: (name, summary) => `Vigil alert. ${name} has a problem: ${summary}.`,
    repeat: (name, summary) => `Reminder from Vigil. ${name} still has a problem: ${summary}.`,
    resolved: (name) => `Good news from Vigil. ${name} is working again.`,
    pressOne: 'Press 1 to acknowledge this alert and stop the reminders.',
    acknowledged: 'Thank you. The alert is acknowledged. Goodbye.',
    alreadyClosed: 'This alert is already closed. Goodbye.',
    otherKey: 'Sorry, that key does nothing.',
    ackLink: (link) => `Acknowledge: ${link}`,
    code: (code) => `Your Vigil verification code is ${code}. It works for 15 minutes.`,
    codeCall: (digits) => `Your Vigil verification code is: ${digits}. Again: ${digits}.`,
  },
  es: {
    opened: (name, summary) => `Alerta de Vigil. ${name} tiene un problema: ${summary}.`,
    repeat: (name, summary) => `Recordatorio de Vigil. ${name} sigue teniendo un problema: ${summary}.`,
    resolved: (name) => `Buenas noticias de Vigil. ${name} vuelve a funcionar.`,
    pressOne: 'Pulse 1 para confirmar esta alerta y detener los recordatorios.',
    acknowledged: 'Gracias. La alerta está confirmada. Adiós.',
    alreadyClosed: 'Esta alerta ya está cerrada. Adiós.',
    otherKey: 'Lo siento, esa tecla no hace nada.',
    ackLink: (link) => `Confirmar: ${link}`,
    code: (code) => `Su código de verificación de Vigil es ${code}. Es válido durante 15 minutos.`,
    codeCall: (digits) => `Su código de verificación de Vigil es: ${digits}. Repito: ${digits}.`,
  },
  fr: {
    opened: (name, summary) => `Alerte Vigil. ${name} a un problème : ${summary}.`,
    repeat: (name, summary) => `Rappel de Vigil. ${name} a toujours un problème : ${summary}.`,
    resolved: (name) => `Bonne nouvelle de Vigil. ${name} fonctionne de nouveau.`,
    pressOne: 'Appuyez sur 1 pour prendre en compte cette alerte et arrêter les rappels.',
    acknowledged: 'Merci. L’alerte est prise en compte. Au revoir.',
    alreadyClosed: 'Cette alerte est déjà close. Au revoir.',
    otherKey: 'Désolé, cette touche ne fait rien.',
    ackLink: (link) => `Prendre en compte : ${link}`,
    code: (code) => `Votre code de vérification Vigil est ${code}. Il est valable 15 minutes.`,
    codeCall: (digits) => `Votre code de vérification Vigil est : ${digits}. Je répète : ${digits}.`,
  },
  de: {
    opened: (name, summary) => `Vigil-Alarm. ${name} hat ein Problem: ${summary}.`,
    repeat: (name, summary) => `Erinnerung von Vigil. ${name} hat weiterhin ein Problem: ${summary}.`,
    resolved: (name) => `Gute Nachricht von Vigil. ${name} funktioniert wieder.`,
    pressOne: 'Drücken Sie die 1, um diesen Alarm zu bestätigen und die Erinnerungen zu beenden.',
    acknowledged: 'Danke. Der Alarm ist bestätigt. Auf Wiederhören.',
    alreadyClosed: 'Dieser Alarm ist bereits abgeschlossen. Auf Wiederhören.',
    otherKey: 'Diese Taste hat leider keine Funktion.',
    ackLink: (link) => `Bestätigen: ${link}`,
    code: (code) => `Ihr Vigil-Bestätigungscode lautet ${code}. Er gilt 15 Minuten.`,
    codeCall: (digits) => `Ihr Vigil-Bestätigungscode lautet: ${digits}. Noch einmal: ${digits}.`,
  },
  it: {
    opened: (name, summary) => `Avviso di Vigil. ${name} ha un problema: ${summary}.`,
    repeat: (name, summary) => `Promemoria di Vigil. ${name} ha ancora un problema: ${summary}.`,
    resolved: (name) => `Buone notizie da Vigil. ${name} funziona di nuovo.`,
    pressOne: 'Premi 1 per confermare questo avviso e fermare i promemoria.',
    acknowledged: 'Grazie. L’avviso è confermato. Arrivederci.',
    alreadyClosed: 'Questo avviso è già chiuso. Arrivederci.',
    otherKey: 'Spiacente, quel tasto non fa nulla.',
    ackLink: (link) => `Conferma: ${link}`,
    code: (code) => `Il tuo codice di verifica Vigil è ${code}. È valido per 15 minuti.`,
    codeCall: (digits) => `Il tuo codice di verifica Vigil è: ${digits}. Ripeto: ${digits}.`,
  },
  pt: {
    opened: (name, summary) => `Alerta do Vigil. ${name} está com um problema: ${summary}.`,
    repeat: (name, summary) => `Lembrete do Vigil. ${name} continua com um problema: ${summary}.`,
    resolved: (name) => `Boa notícia do Vigil. ${name} voltou a funcionar.`,
    pressOne: 'Pressione 1 para confirmar este alerta e parar os lembretes.',
    acknowledged: 'Obrigado. O alerta foi confirmado. Até logo.',
    alreadyClosed: 'Este alerta já foi encerrado. Até logo.',
    otherKey: 'Desculpe, essa tecla não faz nada.',
    ackLink: (link) => `Confirmar: ${link}`,
    code: (code) => `Seu código de verificação do Vigil é ${code}. Ele vale por 15 minutos.`,
    codeCall: (digits) => `Seu código de verificação do Vigil é: ${digits}. Repetindo: ${digits}.`,
  },
};

const DEFAULT_LANGUAGE = 'en-US';

/** The phrases of a language code (en-GB → en); English for a code Vigil does not speak. */
function phrasesOf(languageCode: string): Phrases {
  return PHRASES[languageCode.slice(0, 2).toLowerCase()] ?? PHRASES.en!;
}

/** Twilio's `<Say language>` takes the full code (en-GB, fr-CA); an unknown one falls back to English. */
function sayLanguage(languageCode: string): string {
  return PHRASES[languageCode.slice(0, 2).toLowerCase()] ? languageCode : DEFAULT_LANGUAGE;
}

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const say = (languageCode: string, text: string) =>
  `<Say language="${sayLanguage(languageCode)}">${xml(text)}</Say>`;
const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

export interface PhoneAlert {
  event: string;
  monitorName: string;
  summary: string;
  languageCode: string;
}

function headline(alert: PhoneAlert, summaryOf: (summary: string) => string = (summary) => summary): string {
  const phrases = phrasesOf(alert.languageCode);
  if (alert.event === 'resolved') return phrases.resolved(alert.monitorName);
  const summary = summaryOf(alert.summary).replace(/[.\s]+$/, '');
  return alert.event.startsWith('repeat-')
    ? phrases.repeat(alert.monitorName, summary)
    : phrases.opened(alert.monitorName, summary);
}

/**
 * A summary as a voice reads it: every web address becomes its host ("HTTP 503 from shop.example", not
 * "h t t p s colon slash slash …" and a path read letter by letter).
 */
export function spoken(summary: string): string {
  return summary.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => {
    try {
      return new URL(url.replace(/[.,;:!?)]+$/, '')).hostname.replace(/^www\./, '');
    } catch {
      return url;
    }
  });
}

/** The SMS of an alert: what broke, and the signed acknowledge link while the incident is open. */
export function alertSms(alert: PhoneAlert & { ackLink: string | null }): string {
  const text = headline(alert);
  return alert.ackLink ? `${text} ${phrasesOf(alert.languageCode).ackLink(alert.ackLink)}` : text;
}

/**
 * The call of an alert: the headline twice, asking for 1 to acknowledge (posted to `gatherUrl`); a recovery
 * notice only says so.
 */
export function alertCallTwiml(alert: PhoneAlert & { gatherUrl: string | null }): string {
  const line = say(alert.languageCode, headline(alert, spoken));
  if (!alert.gatherUrl) return twiml(line);
  const ask = say(alert.languageCode, phrasesOf(alert.languageCode).pressOne);
  return twiml(
    `<Gather input="dtmf" numDigits="1" timeout="8" action="${xml(alert.gatherUrl)}" method="POST">${line}${ask}</Gather>` +
      `<Gather input="dtmf" numDigits="1" timeout="8" action="${xml(alert.gatherUrl)}" method="POST">${line}${ask}</Gather>`,
  );
}

/** The answer to a key press on an alert call. */
export function gatherReplyTwiml(
  languageCode: string,
  outcome: 'acknowledged' | 'closed' | 'other-key',
  gatherUrl: string,
): string {
  const phrases = phrasesOf(languageCode);
  if (outcome === 'acknowledged') return twiml(`${say(languageCode, phrases.acknowledged)}<Hangup/>`);
  if (outcome === 'closed') return twiml(`${say(languageCode, phrases.alreadyClosed)}<Hangup/>`);
  return twiml(
    `<Gather input="dtmf" numDigits="1" timeout="8" action="${xml(gatherUrl)}" method="POST">${say(languageCode, phrases.otherKey)}${say(languageCode, phrases.pressOne)}</Gather>`,
  );
}

export function codeSms(code: string, languageCode = DEFAULT_LANGUAGE): string {
  return phrasesOf(languageCode).code(code);
}

/** A verification call reads the code digit by digit, twice. */
export function codeCallTwiml(code: string, languageCode = DEFAULT_LANGUAGE): string {
  const digits = code.split('').join(', ');
  return twiml(`${say(languageCode, phrasesOf(languageCode).codeCall(digits))}<Hangup/>`);
}

/** An empty TwiML answer: nothing to say or send. */
export const EMPTY_TWIML = twiml('');
