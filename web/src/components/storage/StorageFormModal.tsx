import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, InputNumber, Modal, Select, Space, Switch, Upload } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { ApiError } from '@/api/errors';
import {
  saveStorage,
  uploadStorageImage,
  ZONES,
  type ProbeInput,
  type Storage,
  type StorageForm,
  type StorageKind,
} from '@/api/storage';
import { showServerErrors } from '@/lib/serverErrors';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';
import { PlaceSearch } from '@/components/map/PlaceSearch';
import { useDeviceChoices } from '@/hooks/resources';
import { useTimeZones } from '@/hooks/useTimeZones';
import { rangeRules } from '@/components/ui/rangeRules';

/** Field limits of business-domain section 5. */
export const LIMITS: Record<string, number> = {
  storageName: 50,
  volume: 50,
  area: 50,
  compressor: 100,
  airCooler: 100,
  electricBox: 100,
  brand: 50,
  model: 50,
  address: 200,
  remark: 200,
};

const ROOM_FIELDS = ['volume', 'area', 'compressor', 'airCooler', 'electricBox', 'address'] as const;
const FREEZER_FIELDS = ['brand', 'model'] as const;

interface FormValues extends StorageForm {
  probes: ProbeInput[];
}

/** Add or edit a cold storage, freezer or virtual storage: its fields, images, controller and probes. */
export function StorageFormModal({
  kind,
  storage,
  onClose,
  onSaved,
}: {
  kind: StorageKind;
  storage: Storage | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('storage');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [images, setImages] = useState<string[]>(storage?.images ?? []);
  const devices = useDeviceChoices();
  const zones = useTimeZones(storage?.timeZone);
  const deviceOptions = useMemo(
    () => (devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.deviceName} (${d.deviceGuid})` })),
    [devices.data],
  );
  const sensorsOf = (deviceId: number | undefined) =>
    (devices.data?.list.find((d) => d.id === deviceId)?.sensors ?? []).map((s) => ({
      value: s.probeId,
      label: s.paramName,
    }));
  const fields = kind === 'freezer' ? FREEZER_FIELDS : kind === 'storage' ? ROOM_FIELDS : [];
  const rule = (field: string) => ({
    max: LIMITS[field],
    message: t('rule.max', { field: t(`field.${field}`), max: LIMITS[field] }),
  });

  const submit = async (values: FormValues) => {
    setSaving(true);
    try {
      // Position and zone are fields of the form; a virtual storage, which has no position, keeps its own.
      const kept = storage && kind === 'virtual' ? { lat: storage.lat, lng: storage.lng } : {};
      const body: StorageForm = {
        ...kept,
        ...values,
        images,
        probes: kind === 'virtual' || values.probes?.length ? values.probes : undefined,
      };
      await saveStorage(kind, body, storage?.id ?? null, { handleErrors: false });
      onSaved();
    } catch (error) {
      if (!showServerErrors(form, error) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  const initial: Partial<FormValues> = storage
    ? {
        ...storage,
        controllerGuid: storage.controller?.deviceGuid ?? null,
        probes: storage.probes.map((p) => ({
          deviceId: p.deviceId,
          sensor: p.sensor,
          zone: p.zone,
          probeName: p.probeName,
        })),
      }
    : { storageName: '', probes: [], mktEnabled: false, mktWindowHours: 24 };

  return (
    <Modal
      open
      title={storage ? `${t('edit')} · ${storage.storageName}` : t(`add.${kind}`)}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={720}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={submit}
        data-testid="storage-form"
      >
        <Form.Item
          name="storageName"
          label={t('field.storageName')}
          rules={[
            { required: true, whitespace: true, message: t('rule.required', { field: t('field.storageName') }) },
            rule('storageName'),
          ]}
        >
          <SymbolFreeInput autoComplete="off" data-testid="storage-form-name" />
        </Form.Item>
        {fields.map((field) => (
          <Form.Item key={field} name={field} label={t(`field.${field}`)} rules={[rule(field)]}>
            <SymbolFreeInput autoComplete="off" data-testid={`storage-form-${field}`} />
          </Form.Item>
        ))}
        <Form.Item name="timeZone" label={t('field.timeZone')} initialValue="Asia/Shanghai">
          <Select
            showSearch
            optionFilterProp="label"
            loading={zones.loading}
            options={zones.options}
            data-testid="storage-form-timeZone"
          />
        </Form.Item>
        {kind !== 'virtual' ? (
          <Form.Item label={`${t('field.lat')} / ${t('field.lng')}`} data-testid="storage-form-position">
            <Space wrap>
              {/* noStyle: a refusal shows under the parent item (latitude / longitude). */}
              <Form.Item name="lat" noStyle rules={rangeRules(t, -90, 90)}>
                <InputNumber
                  precision={6}
                  prefix={t('field.lat')}
                  style={{ width: 180 }}
                  data-testid="storage-form-lat"
                />
              </Form.Item>
              <Form.Item name="lng" noStyle rules={rangeRules(t, -180, 180)}>
                <InputNumber
                  precision={6}
                  prefix={t('field.lng')}
                  style={{ width: 190 }}
                  data-testid="storage-form-lng"
                />
              </Form.Item>
              <PlaceSearch
                placeholder={t('placeSearch')}
                testId="storage-form-place"
                onFound={(place) => form.setFieldsValue({ lat: place.lat, lng: place.lng })}
              />
            </Space>
          </Form.Item>
        ) : null}
        {kind !== 'virtual' ? (
          <Form.Item
            name="controllerGuid"
            label={t(kind === 'storage' ? 'field.controllerGuid' : 'field.deviceGuid')}
            rules={[{ pattern: /^\d{1,20}$/, message: t('field.controllerGuid') }]}
          >
            <Input inputMode="numeric" autoComplete="off" data-testid="storage-form-guid" />
          </Form.Item>
        ) : null}
        {kind === 'storage' ? (
          <Form.Item label={t('field.images')}>
            <Upload
              accept="image/png,image/jpeg"
              listType="picture"
              fileList={images.map((name) => ({
                uid: name,
                name,
                status: 'done' as const,
                url: `/api/storage/ColdStorage/image/${name}`,
              }))}
              onRemove={(file) => setImages((current) => current.filter((name) => name !== file.uid))}
              customRequest={({ file, onSuccess, onError }) => {
                uploadStorageImage(file as File)
                  .then((stored) => {
                    setImages((current) => [...current, stored.name]);
                    onSuccess?.(stored);
                  })
                  .catch((error: Error) => onError?.(error));
              }}
            >
              <Button icon={<UploadOutlined />}>{t('upload')}</Button>
            </Upload>
          </Form.Item>
        ) : null}
        <Form.List name="probes">
          {(rows, { add, remove }) => (
            <Form.Item label={t('field.probes')}>
              {rows.map((row) => (
                <Space key={row.key} wrap align="baseline">
                  <Form.Item name={[row.name, 'deviceId']} rules={[{ required: true, message: t('probe.device') }]}>
                    <Select
                      style={{ width: 220 }}
                      placeholder={t('probe.device')}
                      options={deviceOptions}
                      showSearch
                      optionFilterProp="label"
                    />
                  </Form.Item>
                  <Form.Item noStyle shouldUpdate>
                    {() => (
                      <Form.Item name={[row.name, 'sensor']} rules={[{ required: true, message: t('probe.sensor') }]}>
                        <Select
                          style={{ width: 140 }}
                          placeholder={t('probe.sensor')}
                          options={sensorsOf(form.getFieldValue(['probes', row.name, 'deviceId']))}
                        />
                      </Form.Item>
                    )}
                  </Form.Item>
                  <Form.Item name={[row.name, 'zone']} initialValue="middle">
                    <Select
                      style={{ width: 120 }}
                      options={ZONES.map((zone) => ({ value: zone, label: t(`zone.${zone}`) }))}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[row.name, 'probeName']}
                    rules={[{ max: 50, message: t('rule.max', { field: t('probe.name'), max: 50 }) }]}
                  >
                    <SymbolFreeInput style={{ width: 140 }} placeholder={t('probe.name')} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} onClick={() => remove(row.name)} aria-label={t('delete')} />
                </Space>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ zone: 'middle' })}
                data-testid="storage-form-add-probe"
              >
                {t('probe.add')}
              </Button>
            </Form.Item>
          )}
        </Form.List>
        <Space wrap>
          <Form.Item name="mktEnabled" label={t('field.mktEnabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="mktWindowHours" label={t('field.mktWindowHours')} rules={rangeRules(t, 1, 2160)}>
            <InputNumber />
          </Form.Item>
          <Form.Item name="mktLimit" label={t('field.mktLimit')} rules={rangeRules(t, -100, 100)}>
            <InputNumber step={0.5} />
          </Form.Item>
        </Space>
        {kind === 'storage' ? (
          <Space wrap>
            <Form.Item
              name="defrostHoldMinutes"
              label={t('field.defrostHoldMinutes')}
              extra={t('field.defrostHoldHint')}
              rules={rangeRules(t, 0, 240)}
            >
              <InputNumber suffix="min" data-testid="storage-form-defrost-hold" />
            </Form.Item>
            <Form.Item
              name="doorHoldMinutes"
              label={t('field.doorHoldMinutes')}
              extra={t('field.doorHoldHint')}
              rules={rangeRules(t, 0, 240)}
            >
              <InputNumber suffix="min" data-testid="storage-form-door-hold" />
            </Form.Item>
          </Space>
        ) : null}
        <Form.Item name="remark" label={t('field.remark')} rules={[rule('remark')]}>
          <SymbolFreeInput textarea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
