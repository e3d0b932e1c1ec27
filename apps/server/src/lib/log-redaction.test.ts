import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl()', () => {
  it('hides the values of token, code, state, key and signature parameters and keeps the rest as sent', () => {
    expect(redactUrl('/monitor-bff/alerts/acknowledge?token=abc.123.sig')).toBe(
      '/monitor-bff/alerts/acknowledge?token=[redacted]',
    );
    expect(redactUrl('/app/oauth?shop=a.myshopify.com&code=x%2Fy&state=s&hmac=h')).toBe(
      '/app/oauth?shop=a.myshopify.com&code=[redacted]&state=[redacted]&hmac=[redacted]',
    );
    expect(redactUrl('/x?api_key=a&key=b&sig=c&signature=d&auth=e&oauth_verifier=f&monitorId=m')).toBe(
      '/x?api_key=[redacted]&key=[redacted]&sig=[redacted]&signature=[redacted]&auth=[redacted]&oauth_verifier=[redacted]&monitorId=m',
    );
    expect(redactUrl('/x?access_token=a&Refresh%5FToken=b&client_secret=c&TOKEN=d&page=2')).toBe(
      '/x?access_token=[redacted]&Refresh%5FToken=[redacted]&client_secret=[redacted]&TOKEN=[redacted]&page=2',
    );
  });

  it('leaves a URL without sensitive parameters, or without a query, untouched', () => {
    expect(redactUrl('/monitor-bff/monitor?page=1&pageSize=20')).toBe(
      '/monitor-bff/monitor?page=1&pageSize=20',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
    expect(redactUrl('/x?token&code=')).toBe('/x?token&code=[redacted]');
    expect(redactUrl('/x?%E0%A4%A=1&token=t')).toBe('/x?%E0%A4%A=1&token=[redacted]');
  });
});
