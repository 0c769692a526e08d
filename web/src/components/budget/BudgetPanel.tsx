import { Alert, Button, Descriptions, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  assignWaybillBudget,
  profilePageKey,
  waybillBudgetKey,
  type ProfilePage,
  type StabilityBandUse,
  type StabilityBudget,
} from '@/api/budget';
import { Permitted } from '@/components/ui/Permitted';
import { useRead } from '@/hooks/useRead';
import { formatZoned, zoneLabel } from '@/lib/format';
import { ProfileForm } from './ProfileForm';

type T = (key: string, options?: Record<string, unknown>) => string;

/** Seconds as "12 h 5 min" in the reader's language. */
export function budgetDuration(t: T, seconds: number | undefined): string {
  const minutes = Math.round((seconds ?? 0) / 60);
  return t('budget:duration', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** The budget's window in the zone the api names (the device's; a lot's storage's), each end with its offset. */
export function budgetWindow(budget: Pick<StabilityBudget, 'windowStart' | 'windowEnd' | 'timeZone'>): string {
  if (!budget.windowStart) return '-';
  const zone = budget.timeZone ?? null;
  return `${formatZoned(budget.windowStart, zone)} ~ ${formatZoned(budget.windowEnd ?? null, zone)}`;
}

export function bandLabel(band: Pick<StabilityBandUse, 'low' | 'high'>, rangeHigh: number): string {
  const { low, high } = band;
  if (low !== null && low !== undefined && low >= rangeHigh) {
    return high === null || high === undefined ? `> ${low} °C` : `${low} < t ≤ ${high} °C`;
  }
  return low === null || low === undefined ? `< ${high} °C` : `${low} ≤ t < ${high} °C`;
}

/** Each band's used / allowed / remaining time, MKT against its limit, unknown time and the disposition. */
export function BudgetFigures({ budget }: { budget: StabilityBudget }) {
  const { t } = useTranslation('budget');
  const profile = budget.profile && 'id' in budget.profile ? budget.profile : null;
  if (!profile) return <Typography.Text type="secondary">{t('noProfile')}</Typography.Text>;
  const rows = (budget.bands ?? []).map((band, index) => ({ ...band, key: index }));
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="budget-figures">
      {budget.dispositionRequired ? (
        <Alert type="error" showIcon title={t('dispositionRequired')} data-testid="budget-disposition-required" />
      ) : budget.alert ? (
        <Alert type="warning" showIcon title={t('alert', { percent: profile.alertPercent })} />
      ) : null}
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label={t('profile')}>{profile.name}</Descriptions.Item>
        <Descriptions.Item label={t('range')}>{`${profile.rangeLow} ~ ${profile.rangeHigh} °C`}</Descriptions.Item>
        <Descriptions.Item label={t('window')}>
          <span data-testid="budget-window">{budgetWindow(budget)}</span>
          {budget.windowStart ? (
            <Typography.Text type="secondary" data-testid="budget-zone">
              {' '}
              {t('timesIn', { zone: zoneLabel(budget.timeZone) })}
            </Typography.Text>
          ) : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('mkt')}>
          <span data-testid="budget-mkt">
            {budget.mkt === null || budget.mkt === undefined ? '-' : `${budget.mkt.toFixed(2)} °C`}
            {budget.mktLimit === null || budget.mktLimit === undefined ? '' : ` / ${budget.mktLimit} °C`}
          </span>
          {budget.mktExceeded ? <Tag color="error">{t('mktExceeded')}</Tag> : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('unknown')}>{budgetDuration(t, budget.unknownSeconds)}</Descriptions.Item>
        <Descriptions.Item label={t('disposition')}>
          {budget.disposition ? t(`dispositions.${budget.disposition}`) : t('dispositions.none')}
        </Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        data-testid="budget-bands"
        columns={[
          { title: t('band'), key: 'band', render: (_, band) => bandLabel(band, profile.rangeHigh ?? 0) },
          { title: t('allowed'), key: 'allowed', render: (_, band) => budgetDuration(t, band.allowedSeconds) },
          {
            title: t('used'),
            key: 'used',
            render: (_, band) => (
              <Space>
                {`${budgetDuration(t, band.usedSeconds)} (${band.usedPercent ?? 0} %)`}
                {band.exhausted ? (
                  <Tag color="error">{t('exhausted')}</Tag>
                ) : band.alert ? (
                  <Tag color="warning">{t('alertTag')}</Tag>
                ) : null}
              </Space>
            ),
          },
          { title: t('remaining'), key: 'remaining', render: (_, band) => budgetDuration(t, band.remainingSeconds) },
        ]}
      />
    </Space>
  );
}

/** The waybill detail's budget tab: the goods' profile (chosen here) and its budget, live. */
export function WaybillBudgetTab({ waybillId }: { waybillId: number }) {
  const { t } = useTranslation('budget');
  const { data: budget, mutate } = useRead<StabilityBudget>(waybillBudgetKey(waybillId), { refreshInterval: 60_000 });
  const { data: profiles, mutate: reloadProfiles } = useRead<ProfilePage>(profilePageKey({ start: 1, pageSize: 200 }));
  const [creating, setCreating] = useState(false);
  const current = budget?.profile && 'id' in budget.profile ? budget.profile.id : null;
  const assign = async (profileId: number | null) => {
    await mutate(assignWaybillBudget(waybillId, profileId), { revalidate: false });
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="waybill-budget">
      <Permitted route="waybill.list" action="edit">
        <Space wrap>
          <Select
            allowClear
            style={{ width: 260 }}
            placeholder={t('chooseProfile')}
            value={current ?? undefined}
            options={(profiles?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
            onChange={(value?: number) => void assign(value ?? null)}
            data-testid="budget-profile-select"
          />
          <Button onClick={() => setCreating(true)}>{t('newProfile')}</Button>
        </Space>
      </Permitted>
      {budget ? <BudgetFigures budget={budget} /> : null}
      <ProfileForm
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(saved) => {
          setCreating(false);
          void reloadProfiles();
          void assign(saved.id ?? null);
        }}
      />
    </Space>
  );
}
