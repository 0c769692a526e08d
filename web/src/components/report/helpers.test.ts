import { describe, expect, it } from 'vitest';
import { anyGenerating, firstDuplicateReceiver, formatSize, quickRange } from './helpers';

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
