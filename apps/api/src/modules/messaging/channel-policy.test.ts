import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { channelsFor } from './channel-policy.js';

const twilio = {
  NODE_ENV: 'test',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_FROM: '+18095550000',
  OPS_API_KEY: 'an-ops-key-of-16-chars',
};
const template = `HX${'0'.repeat(32)}`;

describe('channel policy', () => {
  it('WhatsApp first and SMS behind it by default; the simulator has every template', () => {
    expect(channelsFor(loadConfig({ NODE_ENV: 'test' }), 'phone-code')).toEqual(['whatsapp', 'sms']);
    expect(channelsFor(loadConfig({ NODE_ENV: 'test', COUNTRY: 'mx' }), 'reminder')).toEqual(['whatsapp', 'sms']);
  });

  it('with Twilio, WhatsApp only for the kinds whose template is configured, and only with a sender', () => {
    const withSender = loadConfig({
      ...twilio,
      TWILIO_WHATSAPP_FROM: '+18095550100',
      PUBLIC_BASE_URL: 'https://provee.example',
      WHATSAPP_TEMPLATES: JSON.stringify({ reminder: template }),
    });
    expect(channelsFor(withSender, 'reminder')).toEqual(['whatsapp', 'sms']);
    expect(channelsFor(withSender, 'phone-code')).toEqual(['sms']);
    expect(
      channelsFor(loadConfig({ ...twilio, WHATSAPP_TEMPLATES: JSON.stringify({ reminder: template }) }), 'reminder'),
    ).toEqual(['sms']);
  });

  it('MESSAGE_CHANNELS overrides a kind: SMS only, or SMS first; a WhatsApp-only policy that cannot send falls to SMS', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      MESSAGE_CHANNELS: JSON.stringify({ 'phone-code': ['sms'], reminder: ['sms', 'whatsapp'] }),
    });
    expect(channelsFor(config, 'phone-code')).toEqual(['sms']);
    expect(channelsFor(config, 'reminder')).toEqual(['sms', 'whatsapp']);
    expect(channelsFor(config, 'signing-link')).toEqual(['whatsapp', 'sms']);
    expect(channelsFor(loadConfig({ ...twilio, MESSAGE_CHANNELS: '{"reminder":["whatsapp"]}' }), 'reminder')).toEqual([
      'sms',
    ]);
  });

  it('a policy or template that is not valid stops the start with a Spanish reason', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', MESSAGE_CHANNELS: '{"reminder":["telegram"]}' })).toThrow(
      /MESSAGE_CHANNELS/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', MESSAGE_CHANNELS: 'no es json' })).toThrow(/objeto JSON/);
    expect(() => loadConfig({ NODE_ENV: 'test', WHATSAPP_TEMPLATES: '{"reminder":"HX1"}' })).toThrow(/Content SID/);
    expect(() => loadConfig({ NODE_ENV: 'test', REMINDER_DELAYS_MINUTES: '60,120,180,240' })).toThrow(/tres/);
    expect(() => loadConfig({ ...twilio, TWILIO_WHATSAPP_FROM: '+18095550100' })).toThrow(/PUBLIC_BASE_URL/);
    expect(loadConfig({ NODE_ENV: 'test', REMINDER_DELAYS_MINUTES: '30, 600' }).REMINDER_DELAYS_MINUTES).toEqual([
      30, 600,
    ]);
  });
});
