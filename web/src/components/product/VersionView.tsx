import { Alert, Button, Input, Select, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  deleteFirmware,
  deviceTypeOptionsKey,
  firmwarePageKey,
  uploadFirmware,
  type DeviceTypeOption,
  type Firmware,
} from '@/api/product';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { IssueUpgradeDrawer, RolloutList } from './RolloutViews';
import {
  FIRMWARE_MAX_BYTES,
  UPGRADE_RULES,
  UPGRADE_TIMEOUT_MINUTES,
  VERSION_DESCRIP_MAX,
  VERSION_LABEL_MAX,
  VERSION_VALUE_MAX,
} from './upgrade';

const VERSION_ROUTE = 'operation.product.version';

function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The firmware file of the upload form: one file, checked against the cap before it is sent. */
function FirmwareFile({ value, onChange }: { value?: File; onChange?: (file: File | undefined) => void }) {
  const { t } = useTranslation('product');
  return (
    <Upload
      maxCount={1}
      beforeUpload={(file) => {
        onChange?.(file);
        return false;
      }}
      onRemove={() => onChange?.(undefined)}
      fileList={value ? [{ uid: 'firmware', name: `${value.name} (${fileSize(value.size)})`, status: 'done' }] : []}
    >
      <Button data-testid="firmware-file">{t('upgrade.chooseFile')}</Button>
    </Upload>
  );
}

type UploadValues = {
  deviceTypeId: number;
  latestVersionValue: string;
  latestVersionLabel: string;
  versionDescrip?: string;
  upgradeMultipartFile?: File;
};

/** /operation/device/version: firmware per device model, upgrades issued from it and their progress. */
export function VersionView() {
  const { t } = useTranslation('product');
  const [filters, setFilters] = useState<{ deviceTypeId?: number; keyword?: string }>({});
  const [uploading, setUploading] = useState(false);
  const [issuing, setIssuing] = useState<Firmware | null>(null);
  const [rolloutsVersion, setRolloutsVersion] = useState(0);
  const { data: types } = useRead<DeviceTypeOption[]>(deviceTypeOptionsKey());
  const { data, loading, pagination, mutate } = usePagedQuery<Firmware, typeof filters>(firmwarePageKey, filters);
  const typeOptions = (types ?? []).map((type) => ({ value: type.id, label: `${type.typeName} (${type.typeCode})` }));
  const columns: ListColumn<Firmware>[] = [
    { key: 'latestVersionValue', title: t('field.latestVersionValue'), dataIndex: 'latestVersionValue', card: 'title' },
    { key: 'latestVersionLabel', title: t('field.latestVersionLabel'), dataIndex: 'latestVersionLabel' },
    { key: 'typeName', title: t('field.deviceType'), dataIndex: 'typeName' },
    {
      key: 'versionDescrip',
      title: t('field.versionDescrip'),
      dataIndex: 'versionDescrip',
      long: 40,
      desktopOnly: true,
    },
    {
      key: 'file',
      title: t('field.upgradeMultipartFile'),
      render: (_, f) => `${f.fileName ?? '-'} · ${fileSize(f.fileSize)}`,
      desktopOnly: true,
    },
    {
      key: 'sha256',
      title: 'SHA-256',
      render: (_, f) => (
        <Typography.Text code copyable={{ text: f.sha256 }}>
          {f.sha256.slice(0, 12)}…
        </Typography.Text>
      ),
      desktopOnly: true,
    },
    { key: 'gmtCreate', title: t('field.gmtCreate'), render: (_, f) => formatTime(f.gmtCreate), desktopOnly: true },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, f) => (
        <Space size={0}>
          <Permitted route={VERSION_ROUTE} action="add">
            <Button type="link" size="small" onClick={() => setIssuing(f)} data-testid="firmware-upgrade">
              {t('upgrade.issue')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={VERSION_ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: f.latestVersionValue })}
            onConfirm={() => deleteFirmware(f.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const required = { required: true, whitespace: true, message: t('required') };
  const fields: DrawerField[] = [
    {
      type: 'select',
      name: 'deviceTypeId',
      label: t('field.deviceType'),
      options: typeOptions,
      search: true,
      rules: [{ required: true, message: t('required') }],
    },
    {
      type: 'input',
      name: 'latestVersionValue',
      label: t('field.latestVersionValue'),
      maxLength: VERSION_VALUE_MAX,
      clearSymbols: false,
      rules: [required],
    },
    {
      type: 'input',
      name: 'latestVersionLabel',
      label: t('field.latestVersionLabel'),
      maxLength: VERSION_LABEL_MAX,
      clearSymbols: false,
      rules: [required],
    },
    {
      type: 'input',
      name: 'versionDescrip',
      label: t('field.versionDescrip'),
      maxLength: VERSION_DESCRIP_MAX,
      textarea: true,
      clearSymbols: false,
    },
    {
      type: 'slot',
      name: 'upgradeMultipartFile',
      label: t('field.upgradeMultipartFile'),
      extra: t('upgrade.fileHint', { mb: UPGRADE_RULES.firmwareMaxMB }),
      rules: [
        { required: true, message: t('required') },
        {
          validator: (_, file?: File) =>
            !file || (file.size > 0 && file.size <= FIRMWARE_MAX_BYTES)
              ? Promise.resolve()
              : Promise.reject(new Error(t('upgrade.fileTooLarge', { mb: UPGRADE_RULES.firmwareMaxMB }))),
        },
      ],
      render: () => <FirmwareFile />,
    },
  ];
  return (
    <div data-testid="version-list">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message={t('upgrade.waitHint', { minutes: UPGRADE_TIMEOUT_MINUTES })}
      />
      <DataList<Firmware>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Space wrap>
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('field.deviceType')}
              options={typeOptions}
              onChange={(v?: number) => setFilters((f) => ({ ...f, deviceTypeId: v }))}
              style={{ width: 240 }}
            />
            <Input
              allowClear
              placeholder={t('field.latestVersionValue')}
              onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
              style={{ width: 180 }}
            />
          </Space>
        }
        actions={
          <Permitted route={VERSION_ROUTE} action="add">
            <Button type="primary" onClick={() => setUploading(true)} data-testid="firmware-add">
              {t('upgrade.upload')}
            </Button>
          </Permitted>
        }
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('upgrade.rollouts')}
      </Typography.Title>
      <RolloutList key={rolloutsVersion} />
      <DrawerForm<UploadValues>
        open={uploading}
        title={t('upgrade.upload')}
        fields={fields}
        initialValues={{}}
        onClose={() => setUploading(false)}
        onSubmit={async (v) => {
          const { upgradeMultipartFile, ...rest } = v;
          await uploadFirmware(
            {
              ...rest,
              latestVersionValue: rest.latestVersionValue.trim(),
              latestVersionLabel: rest.latestVersionLabel.trim(),
            },
            upgradeMultipartFile as File,
          );
          void mutate();
        }}
      />
      {issuing && (
        <IssueUpgradeDrawer
          firmware={issuing}
          onClose={() => setIssuing(null)}
          onIssued={() => {
            setIssuing(null);
            setRolloutsVersion((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}
