import { Button, Input, Space } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { deleteSeries, insertSeries, seriesPageKey, updateSeries, type DeviceSeries } from '@/api/product';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { SERIES_NAME_MAX } from './upgrade';

const ROUTE = 'operation.product.series';

/** /operation/device/series (a hidden menu entry): the series a device model belongs to. */
export function SeriesView() {
  const { t } = useTranslation('product');
  const [keyword, setKeyword] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState<{ series: DeviceSeries | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<DeviceSeries, { keyword?: string }>(seriesPageKey, {
    keyword,
  });
  const columns: ListColumn<DeviceSeries>[] = [
    { key: 'seriesName', title: t('field.seriesName'), dataIndex: 'seriesName', card: 'title' },
    { key: 'typeCount', title: t('field.typeCount'), dataIndex: 'typeCount' },
    { key: 'gmtCreate', title: t('field.gmtCreate'), render: (_, s) => formatTime(s.gmtCreate), desktopOnly: true },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, s) => (
        <Space size={0}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ series: s })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: s.seriesName })}
            onConfirm={() => deleteSeries(s.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'seriesName',
      label: t('field.seriesName'),
      maxLength: SERIES_NAME_MAX,
      clearSymbols: false,
      extra: editing?.series ? t('seriesRenameHint') : undefined,
      rules: [{ required: true, whitespace: true, message: t('required') }],
    },
  ];
  const current = editing?.series ?? null;
  const initial = useMemo(() => ({ seriesName: current?.seriesName ?? '' }), [current]);
  return (
    <div data-testid="series-list">
      <DataList<DeviceSeries>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Input
            allowClear
            placeholder={t('keyword')}
            onChange={(e) => setKeyword(e.target.value || undefined)}
            style={{ width: 200 }}
          />
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ series: null })} data-testid="series-add">
              {t('addSeries')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<{ seriesName: string }>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={current ? t('editSeries') : t('addSeries')}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          const seriesName = v.seriesName.trim();
          if (current) await updateSeries({ id: current.id, seriesName });
          else await insertSeries({ seriesName });
          void mutate();
        }}
      />
    </div>
  );
}
