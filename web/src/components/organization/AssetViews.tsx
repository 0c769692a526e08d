import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Form, Input, Result, Skeleton, Space, Table, Tag } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  assetDetailKey,
  assetPageKey,
  deleteAsset,
  saveAsset,
  switchAsset,
  type Asset,
  type AssetInput,
} from '@/api/organization';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { treeOptions, useOrganizations } from './common';
import { useDeviceOptions } from '@/hooks/resources';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';

export const MAX_ASSET_DEVICES = 5;

function CustomList() {
  const { t } = useTranslation('organization');
  return (
    <Form.List name="custom">
      {(items, { add, remove }) => (
        <>
          {items.map((item) => (
            <Space key={item.key} align="baseline" wrap>
              <Form.Item
                name={[item.name, 'key']}
                rules={[{ required: true, max: 50, message: t('max', { max: 50 }) }]}
              >
                <Input placeholder={t('asset.customKey')} maxLength={50} />
              </Form.Item>
              <Form.Item name={[item.name, 'value']} rules={[{ max: 200, message: t('max', { max: 200 }) }]}>
                <Input placeholder={t('asset.customValue')} maxLength={200} />
              </Form.Item>
              <MinusCircleOutlined onClick={() => remove(item.name)} aria-label="remove" />
            </Space>
          ))}
          <Button type="dashed" onClick={() => add({ key: '', value: '' })} icon={<PlusOutlined />}>
            {t('asset.customAdd')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

function useAssetFields(): DrawerField[] {
  const { t } = useTranslation('organization');
  const devices = useDeviceOptions();
  const { data: tree } = useOrganizations();
  const text = (name: string, max: number, required = false): DrawerField => ({
    type: 'input',
    name,
    label: t(`asset.${name}`),
    maxLength: max,
    rules: [{ required, max, message: required ? t('required') : t('max', { max }) }],
  });
  return [
    text('combName', 100, true),
    text('combTypeName', 50),
    text('combNum', 50),
    text('brand', 50),
    text('model', 50),
    text('volume', 50),
    { type: 'treeSelect', name: 'organizationId', label: t('asset.organization'), treeData: treeOptions(tree ?? []) },
    {
      type: 'select',
      name: 'deviceIds',
      label: t('asset.devices'),
      options: devices,
      multiple: true,
      extra: t('asset.maxDevices'),
      rules: [{ type: 'array', max: MAX_ASSET_DEVICES, message: t('asset.maxDevices') }],
    },
    { type: 'input', name: 'remark', label: t('asset.remark'), maxLength: 200, textarea: true },
    { type: 'title', name: 'customTitle', label: t('asset.custom') },
    { type: 'slot', name: 'customList', render: () => <CustomList /> },
  ];
}

type AssetForm = Omit<AssetInput, 'id'> & Record<string, unknown>;

function toForm(asset: Asset | null): Partial<AssetForm> {
  if (!asset) return { custom: [], deviceIds: [] };
  const { devices, ...rest } = asset;
  return { ...rest, deviceIds: devices.map((d) => d.id) };
}

function AssetDrawer({
  asset,
  open,
  onClose,
  onSaved,
}: {
  asset: Asset | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('organization');
  const fields = useAssetFields();
  const initial = useMemo(() => toForm(asset), [asset]);
  return (
    <DrawerForm<AssetForm>
      key={asset?.id ?? 'new'}
      open={open}
      title={asset ? t('asset.edit') : t('asset.add')}
      fields={fields}
      initialValues={initial}
      width={560}
      onClose={onClose}
      onSubmit={async (v) => {
        await saveAsset({
          id: asset?.id,
          combName: v.combName,
          combTypeName: v.combTypeName || null,
          combNum: v.combNum || null,
          brand: v.brand || null,
          model: v.model || null,
          volume: v.volume || null,
          remark: v.remark || null,
          organizationId: v.organizationId ?? null,
          custom: (v.custom ?? []).filter((item) => item.key),
          deviceIds: v.deviceIds ?? [],
        });
        onSaved();
      }}
    />
  );
}

function StateSwitch({ asset, onDone }: { asset: Asset; onDone: () => void }) {
  const { t } = useTranslation('organization');
  const action = asset.enabled ? 'disable' : 'enable';
  return (
    <ConfirmAction
      route="asset.list"
      action={action}
      danger={asset.enabled}
      title={t(`asset.${action}Confirm`)}
      onConfirm={() => switchAsset(asset.id, !asset.enabled).then(onDone)}
    >
      {t(`asset.${action}`)}
    </ConfirmAction>
  );
}

/** /asset/list: assets (field limits of spec 5), custom information, up to five devices, state. */
export function AssetListView() {
  const { t } = useTranslation('organization');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ asset: Asset | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<Asset, { combName?: string }>(assetPageKey, {
    combName: name || undefined,
  });
  const reload = () => void mutate();
  const columns: ListColumn<Asset>[] = [
    {
      key: 'name',
      title: t('asset.combName'),
      render: (_, a) => <Link href={`/asset/detail/${a.id}`}>{a.combName}</Link>,
    },
    { key: 'num', title: t('asset.combNum'), dataIndex: 'combNum', responsive: ['md'] },
    { key: 'type', title: t('asset.combTypeName'), dataIndex: 'combTypeName', responsive: ['lg'] },
    { key: 'devices', title: t('asset.devices'), render: (_, a) => a.devices.length },
    {
      key: 'state',
      title: t('asset.state'),
      render: (_, a) => (
        <Tag color={a.enabled ? 'success' : 'default'}>{t(a.enabled ? 'asset.enabled' : 'asset.disabled')}</Tag>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, a) => (
        <Space size={0}>
          <Permitted route="asset.list" action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ asset: a })}>
              {t('edit')}
            </Button>
          </Permitted>
          <StateSwitch asset={a} onDone={reload} />
          <ConfirmAction
            route="asset.list"
            action="delete"
            title={t('asset.deleteConfirm')}
            onConfirm={() => deleteAsset(a.id).then(reload)}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="asset-list">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input
          allowClear
          placeholder={t('asset.combName')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
        />
        <Permitted route="asset.list" action="add">
          <Button type="primary" onClick={() => setEditing({ asset: null })} data-testid="asset-add">
            {t('asset.add')}
          </Button>
        </Permitted>
      </Space>
      <DataList<Asset> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
      <AssetDrawer
        asset={editing?.asset ?? null}
        open={Boolean(editing)}
        onClose={() => setEditing(null)}
        onSaved={reload}
      />
    </div>
  );
}

/** /asset/detail/{id}: the asset, its custom information and its devices. */
export function AssetDetailView({ assetId }: { assetId: number | null }) {
  const { t } = useTranslation('organization');
  const router = useRouter();
  const { data: asset, error, mutate } = useRead<Asset>(assetId ? assetDetailKey(assetId) : null);
  const [editing, setEditing] = useState(false);
  if (!assetId || error)
    return (
      <Result
        status="warning"
        title={t('asset.unknown')}
        extra={<Button onClick={() => router.push('/asset/list')}>{t('back')}</Button>}
      />
    );
  if (!asset) return <Skeleton active />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="asset-detail">
      <Card
        size="small"
        title={asset.combName}
        extra={
          <Space size={0}>
            <Permitted route="asset.list" action="edit">
              <Button type="link" onClick={() => setEditing(true)}>
                {t('edit')}
              </Button>
            </Permitted>
            <StateSwitch asset={asset} onDone={() => void mutate()} />
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
          {(['combTypeName', 'combNum', 'brand', 'model', 'volume', 'remark'] as const).map((field) => (
            <Descriptions.Item key={field} label={t(`asset.${field}`)}>
              {asset[field] || '-'}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('asset.state')}>
            <Tag color={asset.enabled ? 'success' : 'default'}>
              {t(asset.enabled ? 'asset.enabled' : 'asset.disabled')}
            </Tag>
          </Descriptions.Item>
          {asset.custom.map((item) => (
            <Descriptions.Item key={item.key} label={item.key}>
              {item.value || '-'}
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Card>
      <Card size="small" title={t('asset.devices')}>
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={asset.devices}
          columns={[
            {
              key: 'name',
              title: t('device.name'),
              render: (_, d) => <Link href={`/device/detail/${d.id}`}>{d.deviceName}</Link>,
            },
            { key: 'guid', title: t('device.guid'), dataIndex: 'deviceGuid' },
            {
              key: 'use',
              title: t('asset.state'),
              render: (_, d) => <Tag>{t(d.useFlag ? 'asset.enabled' : 'asset.disabled')}</Tag>,
            },
          ]}
        />
      </Card>
      <AssetDrawer asset={asset} open={editing} onClose={() => setEditing(false)} onSaved={() => void mutate()} />
    </Space>
  );
}
