/**
 * Reads the TwiML an application answers with. TwiML is small, well-formed XML, so a few dozen lines of
 * reader do (elements, attributes, text, CDATA, comments, the five named entities and numeric ones) and the
 * sandbox needs no XML dependency. Malformed input throws TwimlError, as Twilio reports error 12100.
 */
export class TwimlError extends Error {
  override readonly name = 'TwimlError';
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (entity, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = NAMED_ENTITIES[ref];
    if (named === undefined) throw new TwimlError(`Unknown entity ${entity}`);
    return named;
  });
}

function parseXml(source: string): XmlElement {
  let pos = 0;
  const fail = (problem: string): never => {
    throw new TwimlError(`${problem} at offset ${pos}`);
  };
  const skipPast = (terminator: string) => {
    const end = source.indexOf(terminator, pos);
    if (end < 0) fail(`Missing ${terminator}`);
    pos = end + terminator.length;
  };
  const skipMisc = () => {
    for (;;) {
      while (/\s/.test(source[pos] ?? '')) pos += 1;
      if (source.startsWith('<?', pos)) skipPast('?>');
      else if (source.startsWith('<!--', pos)) skipPast('-->');
      else if (source.startsWith('<!DOCTYPE', pos)) skipPast('>');
      else return;
    }
  };
  const readName = () => {
    const name = /^[A-Za-z_][\w.:-]*/.exec(source.slice(pos))?.[0];
    if (!name) fail('Expected a name');
    pos += name!.length;
    return name!;
  };

  const readElement = (): XmlElement => {
    if (source[pos] !== '<') fail('Expected an element');
    pos += 1;
    const element: XmlElement = { name: readName(), attributes: {}, children: [] };
    for (;;) {
      while (/\s/.test(source[pos] ?? '')) pos += 1;
      if (source.startsWith('/>', pos)) {
        pos += 2;
        return element;
      }
      if (source[pos] === '>') break;
      const attribute = readName();
      const quoted = /^\s*=\s*(["'])/.exec(source.slice(pos));
      if (!quoted) fail(`Expected a quoted value for ${attribute}`);
      pos += quoted![0].length;
      const end = source.indexOf(quoted![1]!, pos);
      if (end < 0) fail(`Unterminated value of ${attribute}`);
      element.attributes[attribute] = decodeEntities(source.slice(pos, end));
      pos = end + 1;
    }
    pos += 1;
    for (;;) {
      if (pos >= source.length) fail(`Unclosed <${element.name}>`);
      if (source.startsWith('</', pos)) {
        pos += 2;
        if (readName() !== element.name) fail(`Mismatched closing tag for <${element.name}>`);
        while (/\s/.test(source[pos] ?? '')) pos += 1;
        if (source[pos] !== '>') fail('Expected >');
        pos += 1;
        return element;
      }
      if (source.startsWith('<!--', pos)) skipPast('-->');
      else if (source.startsWith('<![CDATA[', pos)) {
        const start = pos + '<![CDATA['.length;
        skipPast(']]>');
        element.children.push(source.slice(start, pos - 3));
      } else if (source[pos] === '<') element.children.push(readElement());
      else {
        const end = source.indexOf('<', pos);
        const text = source.slice(pos, end < 0 ? source.length : end);
        pos += text.length;
        element.children.push(decodeEntities(text));
      }
    }
  };

  skipMisc();
  const root = readElement();
  skipMisc();
  if (pos < source.length) fail('Unexpected content after the root element');
  return root;
}

function textOf(node: XmlElement | string): string {
  return typeof node === 'string' ? node : node.children.map(textOf).join('');
}

/** Spoken text as a listener hears it: SSML tags inside <Say> contribute their text, whitespace collapses. */
function spokenText(element: XmlElement): string {
  return textOf(element).replace(/\s+/g, ' ').trim();
}

function readResponse(xml: string): XmlElement {
  const root = parseXml(xml);
  if (root.name !== 'Response') throw new TwimlError(`The root element is <${root.name}>, not <Response>`);
  return root;
}

function elementsOf(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string');
}

function methodOf(value: string | undefined): 'GET' | 'POST' {
  return value?.toUpperCase() === 'GET' ? 'GET' : 'POST';
}

function positiveInt(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

export interface SayVerb {
  verb: 'Say';
  text: string;
  /** Twilio's default is en-US. */
  language: string;
  voice: string | null;
}

export interface GatherVerb {
  verb: 'Gather';
  /** null: Twilio posts the digits to the URL of the document the <Gather> came from. */
  action: string | null;
  method: 'GET' | 'POST';
  /** null: no fixed length; the caller ends with finishOnKey or waits for the timeout. */
  numDigits: number | null;
  timeoutSeconds: number;
  /** '' turns the finish key off. */
  finishOnKey: string;
  /** What plays while Twilio listens: <Say>, <Play> and <Pause>. */
  prompts: VoiceVerb[];
}

export type VoiceVerb =
  | SayVerb
  | GatherVerb
  | { verb: 'Play'; url: string }
  | { verb: 'Pause'; seconds: number }
  | { verb: 'Hangup' }
  | { verb: 'Redirect'; url: string; method: 'GET' | 'POST' }
  /** Verbs the sandbox does not model (Dial, Record, …); the call moves past them. */
  | { verb: 'Other'; name: string };

function voiceVerb(element: XmlElement): VoiceVerb {
  const a = element.attributes;
  switch (element.name) {
    case 'Say':
      return {
        verb: 'Say',
        text: spokenText(element),
        language: a.language ?? 'en-US',
        voice: a.voice ?? null,
      };
    case 'Play':
      return { verb: 'Play', url: textOf(element).trim() };
    case 'Pause':
      return { verb: 'Pause', seconds: positiveInt(a.length, 1) };
    case 'Hangup':
      return { verb: 'Hangup' };
    case 'Redirect':
      return { verb: 'Redirect', url: textOf(element).trim(), method: methodOf(a.method) };
    case 'Gather':
      return {
        verb: 'Gather',
        action: a.action || null,
        method: methodOf(a.method),
        numDigits: a.numDigits === undefined ? null : positiveInt(a.numDigits, 1),
        timeoutSeconds: positiveInt(a.timeout, 5),
        finishOnKey: a.finishOnKey ?? '#',
        prompts: elementsOf(element)
          .filter((child) => ['Say', 'Play', 'Pause'].includes(child.name))
          .map(voiceVerb),
      };
    default:
      return { verb: 'Other', name: element.name };
  }
}

/** The verbs of a voice TwiML document, in order. */
export function parseVoiceTwiml(xml: string): VoiceVerb[] {
  return elementsOf(readResponse(xml)).map(voiceVerb);
}

export interface TwimlReply {
  body: string;
  /** Set when the <Message> names another recipient than the sender of the incoming message. */
  to: string | null;
}

/** The <Message> replies of a messaging TwiML document; an empty answer means no reply. */
export function parseMessagingTwiml(xml: string): TwimlReply[] {
  if (xml.trim() === '') return [];
  return elementsOf(readResponse(xml))
    .filter((element) => element.name === 'Message')
    .map((message) => {
      const body = elementsOf(message).find((child) => child.name === 'Body');
      const text = body
        ? textOf(body)
        : message.children
            .filter((child) => typeof child === 'string' || child.name !== 'Media')
            .map(textOf)
            .join('');
      return { body: text.trim(), to: message.attributes.to ?? null };
    });
}
