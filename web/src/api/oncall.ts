/** On-call schedules (/alarm/OnCallSchedule): a weekly rota in a time zone with overrides, and who is on call. */
import type { PageArgs } from '@/hooks/usePagedQuery';
import { del, post, put } from './client';
import type { Schemas } from './generated';
import { readKey } from './read';

const BASE = '/alarm/OnCallSchedule';

export type OnCallScope = 'site' | 'organization' | 'storage';
/** A user of the account (accountId; name, phone, email shown as the account has them) or a named contact. */
export type OnCallPerson = Schemas['Person'];
export type RotaEntry = Schemas['RotaEntry'];
export type OnCallOverride = Schemas['Override'];

export interface OnCallNow {
  scheduleId: number;
  at: string;
  person: OnCallPerson | null;
  source: 'rota' | 'override' | null;
  since: string | null;
}

export interface OnCallSchedule {
  id: number;
  name: string;
  timeZone: string;
  scope: OnCallScope;
  organizationId: number | null;
  storageId: number | null;
  rota: RotaEntry[];
  overrides: OnCallOverride[];
  onCallNow: OnCallNow;
  gmtCreate: string;
}

export type OnCallScheduleSave = Schemas['OnCallScheduleInput'] & { id?: number };

export const onCallPageKey = (args: PageArgs & { name?: string }) => readKey(`${BASE}/page`, args, 'post');
export const onCallPeopleKey = () => readKey(`${BASE}/people`);
export const saveOnCall = (input: OnCallScheduleSave) =>
  input.id ? put<OnCallSchedule>(`${BASE}/update`, input) : post<OnCallSchedule>(`${BASE}/insert`, input);
export const deleteOnCall = (id: number) => del<null>(`${BASE}/delete/${id}`);
