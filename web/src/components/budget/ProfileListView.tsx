import { Button, Input, Space } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { deleteProfile, profilePageKey, type StabilityProfile } from '@/api/budget';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { bandLabel, budgetDuration } from './BudgetPanel';
import { ProfileForm } from './ProfileForm';

// Profiles are kept with the shipments' keys, as the api checks them (api/budget/routes.py).
const LIST = 'waybill.list';

/** One band as the list shows it: "8 < t ≤ 25 °C: 72 h 0 min". */
export function bandSummary(
  t: (key: string, options?: Record<string, unknown>) => string,
  profile: Pick<StabilityProfile, 'bands' | 'rangeHigh'>,
): string[] {
  return (profile.bands ?? []).map(
    (band) => `${bandLabel(band, profile.rangeHigh ?? 0)}: ${budgetDuration(t, (band.hours ?? 0) * 3600)}`,
  );
}

/** /waybill/profiles: the account's stability profiles (the labelled range, bands, MKT limit, alert). */
export function ProfileListView() {
  const { t } = useTranslation('budget');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ profile: StabilityProfile | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<StabilityProfile, { name?: string }>(profilePageKey, {
    name: name.trim() || undefined,
  });
  const columns: ListColumn<StabilityProfile>[] = [
    { key: 'name', title: t('profileName'), dataIndex: 'name', card: 'title' },
    { key: 'range', title: t('range'), render: (_, p) => `${p.rangeLow} ~ ${p.rangeHigh} °C` },
    {
      key: 'bands',
      title: t('bands'),
      render: (_, p) => (
        <div data-testid={`budget-profile-bands-${p.id}`}>
          {bandSummary(t, p).map((text) => (
            <div key={text}>{text}</div>
          ))}
        </div>
      ),
    },
    {
      key: 'mktLimit',
      title: t('mktLimit'),
      render: (_, p) => (p.mktLimit === null || p.mktLimit === undefined ? '-' : `${p.mktLimit} °C`),
      desktopOnly: true,
    },
    { key: 'alertPercent', title: t('alertPercent'), render: (_, p) => `${p.alertPercent} %`, desktopOnly: true },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, p) => (
        <Space size={0}>
          <Permitted route={LIST} action="edit">
            <Button
              type="link"
              size="small"
              onClick={() => setEditing({ profile: p })}
              data-testid={`budget-profile-edit-${p.id}`}
            >
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={LIST}
            action="delete"
            title={t('deleteConfirm')}
            onConfirm={() => deleteProfile(p.id ?? 0).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="budget-profiles">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input
          allowClear
          placeholder={t('profileName')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
          data-testid="budget-profile-filter"
        />
        <Permitted route={LIST} action="add">
          <Button type="primary" onClick={() => setEditing({ profile: null })} data-testid="budget-profile-add">
            {t('newProfile')}
          </Button>
        </Permitted>
      </Space>
      <DataList<StabilityProfile> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
      <ProfileForm
        key={editing?.profile?.id ?? 'new'}
        profile={editing?.profile ?? null}
        open={Boolean(editing)}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void mutate();
        }}
      />
    </div>
  );
}
