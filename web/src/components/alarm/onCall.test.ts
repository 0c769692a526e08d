import { describe, expect, it } from 'vitest';
import type { OnCallSchedule } from '@/api/oncall';
import { fieldPath, formValues, personLabel, saveBody } from './onCall';

const SCHEDULE: OnCallSchedule = {
  id: 7,
  name: 'Night desk',
  timeZone: 'Europe/Berlin',
  scope: 'organization',
  organizationId: 3,
  storageId: null,
  rota: [
    {
      weekday: 1,
      time: '08:00',
      person: { accountId: 5, name: 'member', phone: null, email: 'm@example.com', lang: 'zh-CN' },
    },
    {
      weekday: 5,
      time: '18:00',
      person: { accountId: null, name: 'Guard', phone: '+8613900139002', email: null, lang: 'en-US' },
    },
  ],
  overrides: [
    {
      start: '2026-12-24',
      end: '2026-12-26',
      person: { accountId: null, name: 'Santa', phone: null, email: 's@example.com', lang: 'zh-CN' },
    },
  ],
  onCallNow: { scheduleId: 7, at: '2026-12-01T10:00:00+01:00', person: null, source: null, since: null },
  gmtCreate: '2026-11-28T21:00:00+08:00',
};

describe('on-call form values', () => {
  it('sends back what it loaded when nothing is changed (a user by id, a contact by its fields)', () => {
    const body = saveBody(formValues(SCHEDULE), SCHEDULE.id);
    expect(body).toEqual({
      id: 7,
      name: 'Night desk',
      timeZone: 'Europe/Berlin',
      scope: 'organization',
      organizationId: 3,
      storageId: null,
      rota: [
        { weekday: 1, time: '08:00', person: { accountId: 5, name: null, phone: null, email: null, lang: null } },
        {
          weekday: 5,
          time: '18:00',
          person: { accountId: null, name: 'Guard', phone: '+8613900139002', email: null, lang: 'en-US' },
        },
      ],
      overrides: [
        {
          start: '2026-12-24',
          end: '2026-12-26',
          person: { accountId: null, name: 'Santa', phone: null, email: 's@example.com', lang: 'zh-CN' },
        },
      ],
    });
  });

  it('drops the organization or storage of another scope and starts a new schedule empty', () => {
    const values = { ...formValues(SCHEDULE), scope: 'site' as const };
    expect(saveBody(values).organizationId).toBeNull();
    expect(formValues(null)).toMatchObject({ scope: 'site', rota: [], overrides: [] });
  });

  it('maps api field paths to form paths and labels a person', () => {
    expect(fieldPath('rota.1.person.accountId')).toEqual(['rota', 1, 'person', 'accountId']);
    expect(personLabel(SCHEDULE.rota[1].person)).toBe('Guard · +8613900139002');
    expect(personLabel(null)).toBe('');
  });
});
