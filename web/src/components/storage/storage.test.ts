import { describe, expect, it } from 'vitest';
import { LIMITS } from './StorageFormModal';
import { detailPath } from './StorageListView';

describe('storage pages', () => {
  it('open each kind on its own detail page', () => {
    expect(detailPath({ id: 3, kind: 'storage' })).toBe('/storage/detail/3');
    expect(detailPath({ id: 4, kind: 'virtual' })).toBe('/storage/detail/4?kind=virtual');
    expect(detailPath({ id: 5, kind: 'freezer' })).toBe('/freezer/detail/5');
  });

  it('check the limits of business-domain section 5 before sending', () => {
    expect(LIMITS).toMatchObject({
      storageName: 50,
      volume: 50,
      area: 50,
      compressor: 100,
      airCooler: 100,
      electricBox: 100,
      brand: 50,
      model: 50,
    });
  });
});
