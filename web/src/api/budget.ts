/** Stability profiles, the budget of a waybill's goods and of a storage's lots (api/budget). */
import type { Page } from '@/components/ui/table';
import { del, post, put } from './client';
import { readKey } from './read';
import type { Schemas } from './generated';

const B = '/budget';

export type StabilityProfile = Schemas['StabilityProfile'];
export type StabilityProfileInput = Schemas['StabilityProfileInput'];
export type StabilityBudget = Schemas['StabilityBudget'];
export type StabilityBandUse = Schemas['StabilityBandUse'];
export type StorageLot = Schemas['StorageLot'];

export const profilePageKey = (args: { start: number; pageSize: number; name?: string }) =>
  readKey(`${B}/StabilityProfile/page`, args, 'post');
/** Add a profile, or change it when the input names its id. */
export const saveProfile = (input: StabilityProfileInput & { id?: number }) =>
  input.id
    ? put<StabilityProfile>(`${B}/StabilityProfile/update`, input)
    : post<StabilityProfile>(`${B}/StabilityProfile/insert`, input);
export const deleteProfile = (id: number) => del<null>(`${B}/StabilityProfile/delete/${id}`);
export const waybillBudgetKey = (waybillId: number) => readKey(`${B}/WaybillBudget/get`, { waybillId });
export const assignWaybillBudget = (waybillId: number, profileId: number | null) =>
  put<StabilityBudget>(`${B}/WaybillBudget/assign`, { waybillId, profileId });
export const lotPageKey = (storageId: number) =>
  readKey(`${B}/Lot/page`, { storageId, start: 1, pageSize: 50 }, 'post');
export type StorageLotInput = Schemas['StorageLotInput'];
export const insertLot = (input: StorageLotInput) => post<StorageLot>(`${B}/Lot/insert`, input);
export const lotBudgetKey = (id: number) => readKey(`${B}/Lot/budget`, { id });
export const disposeLot = (id: number, disposition: 'released' | 'quarantined' | 'rejected', reason?: string) =>
  put<StorageLot>(`${B}/Lot/dispose`, { id, disposition, reason });

export type ProfilePage = Page<StabilityProfile>;
