import { describe, expect, it } from 'vitest';
import { parseMessagingTwiml, parseVoiceTwiml, TwimlError } from './twiml.ts';

describe('TwiML reader', () => {
  it('reads Say with its language and voice, entities and CDATA, and a Gather with its prompts', () => {
    const verbs = parseVoiceTwiml(`<?xml version="1.0" encoding="UTF-8"?>
<!-- an alert -->
<Response>
  <Say language="fr-FR" voice="Polly.Lea">Boutique &amp; Cie : <![CDATA[<panne>]]> &#233;t&#xE9;</Say>
  <Gather numDigits="1" action="/gather?d=1&amp;x=2" method="post" timeout="8" finishOnKey="">
    <Say>Press <emphasis>one</emphasis>.</Say><Pause length="2"/>
  </Gather>
  <Hangup/>
</Response>`);
    expect(verbs).toEqual([
      { verb: 'Say', text: 'Boutique & Cie : <panne> été', language: 'fr-FR', voice: 'Polly.Lea' },
      {
        verb: 'Gather',
        action: '/gather?d=1&x=2',
        method: 'POST',
        numDigits: 1,
        timeoutSeconds: 8,
        finishOnKey: '',
        prompts: [
          { verb: 'Say', text: 'Press one.', language: 'en-US', voice: null },
          { verb: 'Pause', seconds: 2 },
        ],
      },
      { verb: 'Hangup' },
    ]);
  });

  it("applies Twilio's Gather defaults: action back to the document, POST, 5 s, finish on #", () => {
    expect(parseVoiceTwiml('<Response><Gather/></Response>')).toEqual([
      {
        verb: 'Gather',
        action: null,
        method: 'POST',
        numDigits: null,
        timeoutSeconds: 5,
        finishOnKey: '#',
        prompts: [],
      },
    ]);
  });

  it('rejects malformed documents and a root other than Response', () => {
    for (const bad of [
      '<Response><Say>hi</Response>',
      '<Response><Say>hi</Say>',
      '<Response attr=x/>',
      'Hello',
      '<Response/><Response/>',
      '<Speak>hi</Speak>',
      '<Response>&nbsp;</Response>',
    ]) {
      expect(() => parseVoiceTwiml(bad), bad).toThrow(TwimlError);
    }
  });

  it('reads the Message replies of a messaging answer, and none from an empty one', () => {
    expect(
      parseMessagingTwiml(
        '<Response><Message>Thanks!</Message><Message to="+14155550100"><Body>Copy</Body><Media>https://x/y.png</Media></Message></Response>',
      ),
    ).toEqual([
      { body: 'Thanks!', to: null },
      { body: 'Copy', to: '+14155550100' },
    ]);
    expect(parseMessagingTwiml('')).toEqual([]);
    expect(parseMessagingTwiml('<Response/>')).toEqual([]);
  });
});
