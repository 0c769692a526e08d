import { Form, Select } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useDeviceChoices, useStorageChoices } from '@/hooks/resources';
import { reportTarget, storageOptions, STORAGE_KINDS } from './helpers';

/** Every storage the account sees, by kind (each list is read only when `enabled`). */
function useStorageGroups(enabled: boolean) {
  const storages = useStorageChoices('storage', enabled).data?.list;
  const freezers = useStorageChoices('freezer', enabled).data?.list;
  const virtual = useStorageChoices('virtual', enabled).data?.list;
  return { storage: storages, freezer: freezers, virtual };
}

/** Storage id -> name, for the scheduled reports' list (read only when a report names a storage). */
export function useStorageNames(enabled: boolean): Map<number, string> {
  const groups = useStorageGroups(enabled);
  return new Map(STORAGE_KINDS.flatMap((kind) => (groups[kind] ?? []).map((s) => [s.id, s.storageName] as const)));
}

/** What a scheduled report covers: a storage report names one storage, the other types their devices. */
export function ReportSubjectField({ reportType }: { reportType: string | undefined }) {
  const { t } = useTranslation('report');
  const target = reportTarget(reportType);
  const { data: devices } = useDeviceChoices(target === 'devices');
  const groups = useStorageGroups(target === 'storage');

  if (target === 'storage')
    return (
      <Form.Item
        name="storageId"
        label={t('scheduled.storage')}
        rules={[{ required: true, message: t('scheduled.pickStorage') }]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="report-storage"
          options={storageOptions(
            STORAGE_KINDS.map((kind) => ({
              kind,
              label: t(`scheduled.storageKinds.${kind}`),
              storages: groups[kind],
            })),
          )}
        />
      </Form.Item>
    );
  return (
    <Form.Item
      name="deviceIds"
      label={t('scheduled.devices')}
      rules={[{ required: true, type: 'array', min: 1, message: t('scheduled.pickDevice') }]}
    >
      <Select
        mode="multiple"
        showSearch={{ optionFilterProp: 'label' }}
        data-testid="report-devices"
        options={(devices?.list ?? []).map((device) => ({
          value: device.id,
          label: `${device.deviceName} (${device.deviceGuid})`,
        }))}
      />
    </Form.Item>
  );
}
