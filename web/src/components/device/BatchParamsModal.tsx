import { Empty, Form, InputNumber, Modal, Spin } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { deviceDetailKey, sendBatchCommand, type BatchResult, type DeviceDetail, type DeviceParam } from '@/api/device';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useRead } from '@/hooks/useRead';
import { checkSetting, writableParams } from './helpers';

interface BatchParamsModalProps {
  open: boolean;
  /** The chosen devices, all of one model that takes batch parameters. */
  deviceIds: number[];
  onClose: () => void;
  onResults: (results: BatchResult[]) => void;
}

/** The same settings to every chosen device of one model: only the values filled in are sent. */
export function BatchParamsModal({ open, deviceIds, onClose, onResults }: BatchParamsModalProps) {
  const { t } = useTranslation('device');
  const [form] = Form.useForm<Record<string, number | null>>();
  // The model's parameters, from one of its devices (they are the model's, not the device's).
  const { data: detail, isLoading } = useRead<DeviceDetail>(
    open && deviceIds.length ? deviceDetailKey(deviceIds[0]) : null,
  );
  const writable = useMemo(() => writableParams(detail?.params ?? []), [detail]);
  const send = async (values: Record<string, number | null>) => {
    const params = Object.fromEntries(
      Object.entries(values).filter(([, value]) => value !== null && value !== undefined),
    ) as Record<string, number>;
    if (!Object.keys(params).length) {
      form.setFields([{ name: writable[0]?.paramKey ?? '', errors: [t('batchParams.nothing')] }]);
      return;
    }
    onResults(await sendBatchCommand(deviceIds, params));
    form.resetFields();
    onClose();
  };
  const { submit, submitting } = useFormSubmit(form, send);
  const rule = (param: DeviceParam) => ({
    validator: (_: unknown, value: number | null | undefined) =>
      value === null || value === undefined || checkSetting(param, value) === null
        ? Promise.resolve()
        : Promise.reject(new Error(t('params.outOfRange', { min: param.paramMin, max: param.paramMax }))),
  });
  return (
    <Modal
      open={open}
      title={t('batchParams.title', { count: deviceIds.length, model: detail?.typeName ?? '' })}
      okText={t('batchParams.send')}
      cancelText={t('action.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={submitting}
      destroyOnHidden
      data-testid="batch-params"
    >
      {isLoading ? (
        <Spin />
      ) : writable.length ? (
        <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
          {writable.map((param) => (
            <Form.Item
              key={param.paramKey}
              name={param.paramKey}
              label={param.paramName}
              rules={[rule(param)]}
              extra={
                param.paramMin !== null && param.paramMax !== null
                  ? t('params.range', { min: param.paramMin, max: param.paramMax })
                  : undefined
              }
            >
              <InputNumber style={{ width: '100%' }} data-testid={`batch-param-${param.paramKey}`} />
            </Form.Item>
          ))}
        </Form>
      ) : (
        <Empty description={t('params.none')} />
      )}
    </Modal>
  );
}
