import { describe, expect, it } from 'vitest';
import { deliveryStatusLabel } from './delivery-status.tsx';

describe('deliveryStatusLabel', () => {
  it('tells a call picked up without the key press from one that acknowledged the alert', () => {
    expect(deliveryStatusLabel({ channel: 'call', status: 'delivered' })).toBe('Answered, not acknowledged');
    expect(deliveryStatusLabel({ channel: 'call', status: 'acknowledged' })).toBe('Answered, acknowledged');
  });

  it('keeps the plain words for the other channels and states', () => {
    expect(deliveryStatusLabel({ channel: 'sms', status: 'delivered' })).toBe('Delivered');
    expect(deliveryStatusLabel({ channel: 'call', status: 'unanswered' })).toBe('Not answered');
    expect(deliveryStatusLabel({ channel: 'email', status: 'sent' })).toBe('Sent');
  });
});
