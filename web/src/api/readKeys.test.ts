import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customPagePageKey } from './customization';
import {
  chartDataKey,
  deviceCommandsKey,
  deviceEventsKey,
  energyDataKey,
  expiredInfoKey,
  expiredServiceDevicesKey,
  latestDataKey,
  quickQueryKey,
  trackDataKey,
} from './device';
import { timeZonesKey } from './dictionary';
import { queryNoticeKey } from './notice';
import { platformSettingsKey } from './operation';
import { assetDetailKey } from './organization';
import { fetchRead, fetchReads, type ReadKey } from './read';
import { filePageKey } from './report';
import {
  controlCommandsKey,
  storageChartKey,
  storageCountsKey,
  storageDetailKey,
  storageEnergyKey,
  storageOverviewKey,
  storageParamsKey,
  storagePushKey,
  storageTopUpKey,
} from './storage';
import {
  quickWaybillKey,
  shareAccessLogKey,
  shareListKey,
  viewShareKey,
  waybillDetailKey,
  waybillStatusKey,
} from './waybill';

const client = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('./client', () => ({ ...client, put: vi.fn(), del: vi.fn(), getBlob: vi.fn() }));

beforeEach(() => {
  client.get.mockReset().mockResolvedValue(null);
  client.post.mockReset().mockResolvedValue(null);
});

const chart = {
  storageId: 3,
  start: '2026-01-01T00:00:00+08:00',
  end: '2026-01-02T00:00:00+08:00',
  unit: 'C' as const,
};
const deviceChart = { deviceId: 5, start: chart.start, end: chart.end, sensors: '1,2', unit: 'F' as const };

// The requests the components' former call functions made: each key must name exactly that request.
const READS: [name: string, key: ReadKey, method: 'get' | 'post', path: string, params: object | undefined][] = [
  ['storage detail', storageDetailKey('freezer', 7), 'get', '/storage/Freezer/detail/7', undefined],
  ['storage counts', storageCountsKey('virtual'), 'get', '/storage/VirtualStorage/statusCount', undefined],
  [
    'storage counts by name',
    storageCountsKey('storage', 'A'),
    'get',
    '/storage/ColdStorage/statusCount',
    { storageName: 'A' },
  ],
  ['storage overview', storageOverviewKey('storage', 3), 'get', '/storage/ColdStorage/overview', { storageId: 3 }],
  ['storage chart', storageChartKey('freezer', chart), 'get', '/storage/Freezer/chart', chart],
  [
    'storage push setting',
    storagePushKey('virtual', 3),
    'get',
    '/storage/VirtualStorage/pushSetting/get',
    { storageId: 3 },
  ],
  ['storage params', storageParamsKey('storage', 3), 'get', '/storage/ColdStorage/params', { storageId: 3 }],
  ['storage top-up', storageTopUpKey('freezer', 3), 'get', '/storage/Freezer/topUp', { storageId: 3 }],
  ['storage energy', storageEnergyKey('storage', 3), 'get', '/storage/ColdStorage/energy', { storageId: 3 }],
  ['cloud control commands', controlCommandsKey(3), 'get', '/storage/CloudControl/list', { storageId: 3 }],
  ['device latest', latestDataKey(5), 'get', '/device/DeviceData/latest', { deviceId: 5 }],
  ['device chart', chartDataKey(deviceChart), 'get', '/device/DeviceData/chart', deviceChart],
  [
    'device track',
    trackDataKey(5, chart.start, chart.end),
    'get',
    '/device/DeviceData/track',
    { deviceId: 5, start: chart.start, end: chart.end },
  ],
  ['device energy', energyDataKey(5), 'get', '/device/DeviceData/energy', { deviceId: 5 }],
  ['device events', deviceEventsKey(5), 'get', '/device/DeviceEvent/list', { deviceId: 5 }],
  ['device commands', deviceCommandsKey(5), 'get', '/device/DeviceCommand/list', { deviceId: 5 }],
  [
    'expired devices',
    expiredServiceDevicesKey({ start: 2, pageSize: 5, accountId: 9, expiredFlag: 1 }),
    'get',
    '/device/Device/getExpiredServiceDevice',
    { start: 2, pageSize: 5, accountId: 9, expiredFlag: 1 },
  ],
  ['waybill detail', waybillDetailKey(4), 'get', '/waybill/Waybill/detail/4', undefined],
  ['waybill status', waybillStatusKey(4), 'get', '/waybill/Waybill/status', { id: 4 }],
  ['waybill shares', shareListKey(4), 'get', '/waybill/WaybillShare/list', { waybillId: 4 }],
  ['share access log', shareAccessLogKey(8), 'get', '/waybill/WaybillShare/accessLog', { shareId: 8 }],
  ['asset detail', assetDetailKey(6), 'get', '/base/BaseAsset/detail/6', undefined],
  ['time zones', timeZonesKey(), 'get', '/base/BaseDict/queryTimeZoneByType', { type: 'all' }],
  ['platform settings', platformSettingsKey(2), 'get', '/operation/SystemSetting/get', { platformId: 2 }],
  [
    'notices',
    queryNoticeKey({ noticePlatform: 1, noticeType: 1, noticeCamp: 0 }),
    'post',
    '/base/BaseNotice/queryNotice',
    { noticePlatform: 1, noticeType: 1, noticeCamp: 0 },
  ],
  [
    'platforms',
    customPagePageKey({ start: 1, pageSize: 200 }),
    'post',
    '/base/BaseCustomPage/get/page',
    { start: 1, pageSize: 200 },
  ],
  [
    'download centre',
    filePageKey({ start: 2, pageSize: 10 }),
    'post',
    '/report/ExportFile/page',
    { start: 2, pageSize: 10 },
  ],
];

describe('read keys', () => {
  it.each(READS)('%s: the one fetcher runs the request the key names', async (_name, key, method, path, params) => {
    await fetchRead(key);
    const [called, idle] = method === 'get' ? [client.get, client.post] : [client.post, client.get];
    expect(called).toHaveBeenCalledExactlyOnceWith(path, params ?? (method === 'post' ? {} : undefined));
    expect(idle).not.toHaveBeenCalled();
  });
});

// Reads whose failure the page shows itself: the same one fetcher, asked not to notify nor sign out.
const QUIET: [name: string, key: ReadKey, method: 'get' | 'post', path: string, params: object][] = [
  ['service reminder', expiredInfoKey(), 'get', '/device/DeviceExpireInfo/getExpiredInfoByType', { type: 1 }],
  ['device quick query', quickQueryKey('AB12'), 'get', '/device/Device/quickQuery', { guid: 'AB12' }],
  ['waybill quick query', quickWaybillKey('WB1'), 'get', '/waybill/WaybillQuick/query', { trackingNumber: 'WB1' }],
  ['waybill share', viewShareKey('tok', '1234'), 'post', '/waybill/WaybillShare/view', { token: 'tok', pin: '1234' }],
  [
    'waybill share without a PIN',
    viewShareKey('tok', ''),
    'post',
    '/waybill/WaybillShare/view',
    { token: 'tok', pin: null },
  ],
];

describe('quiet read keys', () => {
  it.each(QUIET)('%s: the request with handleErrors false', async (_name, key, method, path, params) => {
    await fetchRead(key);
    const [called, idle] = method === 'get' ? [client.get, client.post] : [client.post, client.get];
    expect(called).toHaveBeenCalledExactlyOnceWith(path, params, { handleErrors: false });
    expect(idle).not.toHaveBeenCalled();
  });

  it('is another cache entry than the same request read loudly', () => {
    expect(JSON.stringify(quickQueryKey('AB12'))).not.toBe(
      JSON.stringify(['/device/Device/quickQuery', { guid: 'AB12' }]),
    );
  });
});

describe('several reads as one', () => {
  it('answers in the order of the keys', async () => {
    client.get.mockImplementation(async (_path: string, params: { n: number }) => ({ total: params.n }));
    const answers = await fetchReads<{ total: number }>([
      ['/a', { n: 2 }],
      ['/b', { n: 1 }],
    ]);
    expect(answers).toEqual([{ total: 2 }, { total: 1 }]);
    expect(client.get).toHaveBeenCalledTimes(2);
  });
});
