/** What the on-call form edits and sends: a person as a choice of user or contact, rows of the rota and overrides. */
import type {
  OnCallOverride,
  OnCallPerson,
  OnCallSchedule,
  OnCallScheduleSave,
  OnCallScope,
  RotaEntry,
} from '@/api/oncall';

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export interface PersonRow {
  /** 'account': a user of the account; 'contact': a named contact. */
  type: 'account' | 'contact';
  accountId?: number | null;
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  lang?: 'zh-CN' | 'en-US' | null;
}

export interface OnCallFormValues {
  name: string;
  timeZone: string;
  scope: OnCallScope;
  organizationId?: number | null;
  storageId?: number | null;
  rota: (Omit<RotaEntry, 'person'> & { person: PersonRow })[];
  overrides: (Omit<OnCallOverride, 'person'> & { person: PersonRow })[];
}

export function personRow(person: OnCallPerson): PersonRow {
  if (person.accountId != null) return { type: 'account', accountId: person.accountId };
  return { type: 'contact', name: person.name, phone: person.phone, email: person.email, lang: person.lang ?? 'zh-CN' };
}

export function personBody(row: PersonRow): OnCallPerson {
  if (row.type === 'account')
    return { accountId: row.accountId ?? null, name: null, phone: null, email: null, lang: null };
  return {
    accountId: null,
    name: row.name ?? null,
    phone: row.phone || null,
    email: row.email || null,
    lang: row.lang ?? 'zh-CN',
  };
}

export function formValues(schedule: OnCallSchedule | null): OnCallFormValues {
  if (!schedule) return { name: '', timeZone: 'Asia/Shanghai', scope: 'site', rota: [], overrides: [] };
  return {
    name: schedule.name,
    timeZone: schedule.timeZone,
    scope: schedule.scope,
    organizationId: schedule.organizationId,
    storageId: schedule.storageId,
    rota: schedule.rota.map((entry) => ({ ...entry, person: personRow(entry.person) })),
    overrides: schedule.overrides.map((entry) => ({ ...entry, person: personRow(entry.person) })),
  };
}

export function saveBody(values: OnCallFormValues, id?: number): OnCallScheduleSave {
  return {
    id,
    name: values.name,
    timeZone: values.timeZone,
    scope: values.scope,
    organizationId: values.scope === 'organization' ? (values.organizationId ?? null) : null,
    storageId: values.scope === 'storage' ? (values.storageId ?? null) : null,
    rota: (values.rota ?? []).map((e) => ({ weekday: e.weekday, time: e.time, person: personBody(e.person) })),
    overrides: (values.overrides ?? []).map((e) => ({ start: e.start, end: e.end, person: personBody(e.person) })),
  };
}

/** An api field path ("rota.1.time") as the form's name path (['rota', 1, 'time']). */
export function fieldPath(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** A person as the list shows it. */
export function personLabel(person: OnCallPerson | null | undefined): string {
  if (!person) return '';
  return [person.name, person.phone || person.email].filter(Boolean).join(' · ');
}
