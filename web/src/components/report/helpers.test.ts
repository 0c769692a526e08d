import { describe, expect, it } from 'vitest';
import en from '../../../public/locales/en-US/report.json';
import zh from '../../../public/locales/zh-CN/report.json';
import {
  anyGenerating,
  firstDuplicateReceiver,
  formatSize,
  quickRange,
  reportSubject,
  reportTarget,
  STORAGE_KINDS,
  STORAGE_REPORT,
  storageOptions,
} from './helpers';

describe('download centre helpers', () => {
  it('formats sizes', () => {
    expect(formatSize(null)).toBe('-');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });

  it('keeps polling only while a row is generating', () => {
    const row = {
      id: 1,
      fileName: 'a.csv',
      fileType: 'csv',
      progress: 0,
      fileSize: null,
      reason: null,
      scheduledReportId: null,
      createTime: '',
      finishTime: null,
      expireTime: null,
    } as const;
    expect(anyGenerating([{ ...row, status: 'generated' }])).toBe(false);
    expect(
      anyGenerating([
        { ...row, status: 'generated' },
        { ...row, status: 'generating' },
      ]),
    ).toBe(true);
    expect(anyGenerating(undefined)).toBe(false);
  });

  it('finds a repeated receiver phone or email', () => {
    expect(
      firstDuplicateReceiver([
        { name: 'a', email: 'qa@x.com' },
        { name: 'b', phone: '138 0013 8000' },
      ]),
    ).toBe(-1);
    expect(
      firstDuplicateReceiver([
        { name: 'a', email: 'qa@x.com' },
        { name: 'b', email: 'QA@x.com ' },
      ]),
    ).toBe(1);
    expect(
      firstDuplicateReceiver([
        { name: 'a', phone: '13800138000' },
        { name: 'b', email: 'b@x.com' },
        { name: 'c', phone: '138-0013-8000' },
      ]),
    ).toBe(2);
  });

  it('quick ranges end now', () => {
    const [start, end] = quickRange('week');
    expect(end.diff(start, 'day')).toBe(7);
  });
});

describe('scheduled report form: storage or devices', () => {
  it('a storage report names a storage, every other type its devices', () => {
    expect(reportTarget(STORAGE_REPORT)).toBe('storage');
    expect(reportTarget('device')).toBe('devices');
    expect(reportTarget('waybill')).toBe('devices');
    expect(reportTarget(undefined)).toBe('devices');
  });

  it('sends only the subject its type names', () => {
    // A form switched from devices to a storage keeps the chosen devices in its state: not sent.
    expect(reportSubject('storage', [3, 4], 7)).toEqual({ deviceIds: [], storageId: 7 });
    expect(reportSubject('device', [3, 4], 7)).toEqual({ deviceIds: [3, 4], storageId: null });
    expect(reportSubject('storage', undefined, undefined)).toEqual({ deviceIds: [], storageId: null });
    expect(reportSubject('device', undefined, null)).toEqual({ deviceIds: [], storageId: null });
  });

  it('offers the storages grouped by kind, empty kinds left out', () => {
    const options = storageOptions([
      { kind: 'storage', label: 'Cold storages', storages: [{ id: 1, storageName: 'Cold Room A' }] },
      { kind: 'freezer', label: 'Freezers', storages: [] },
      { kind: 'virtual', label: 'Virtual storages', storages: [{ id: 9, storageName: 'Warehouse 3' }] },
    ]);
    expect(options).toEqual([
      { label: 'Cold storages', options: [{ value: 1, label: 'Cold Room A' }] },
      { label: 'Virtual storages', options: [{ value: 9, label: 'Warehouse 3' }] },
    ]);
    expect(storageOptions([{ kind: 'storage', label: 'x', storages: undefined }])).toEqual([]);
  });

  it('labels the storage picker in both languages', () => {
    for (const catalogue of [en, zh]) {
      const scheduled = catalogue.scheduled as Record<string, unknown> & { storageKinds: Record<string, string> };
      for (const key of ['storage', 'pickStorage', 'covers']) expect(scheduled[key]).toBeTruthy();
      for (const kind of STORAGE_KINDS) expect(scheduled.storageKinds[kind]).toBeTruthy();
    }
    expect(zh.scheduled.pickStorage).not.toBe(en.scheduled.pickStorage);
  });
});
