import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  InputNumber,
  Result,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { ApiError } from '@/api/errors';
import {
  controlCommandsKey,
  OFFLINE_PROMPT,
  sendControl,
  storageDetailKey,
  type ControlAction,
  type Storage,
  type StorageCommand,
} from '@/api/storage';
import { formatTime } from '@/lib/format';
import { Permitted } from '@/components/ui/Permitted';
import { useRead } from '@/hooks/useRead';
import { ControllerState, EnergyTab, useOverview } from './StorageTabs';
import { NumberRangeError } from '@/components/ui/NumberRangeError';
import { inRange } from '@/components/ui/rangeRules';

/** The setpoint a controller accepts, °C. */
const SETPOINT_MIN = -60;
const SETPOINT_MAX = 60;

const STATUS_COLOR = { pending: 'processing', applied: 'success', failed: 'error' } as const;

/**
 * Cloud control of a cold storage's refrigeration controller: setpoint, compressor start / stop,
 * manual defrost and light, each confirmed first; an offline controller asks again (the offline
 * prompt). Commands show pending until the controller acknowledges them (applied / failed).
 */
export function CloudControlView({ storageId }: { storageId: number | null }) {
  const { t } = useTranslation('storage');
  const router = useRouter();
  const { modal, message } = App.useApp();
  const { data: storage, error } = useRead<Storage>(storageId ? storageDetailKey('storage', storageId) : null);
  const commands = useRead<StorageCommand[]>(storageId ? controlCommandsKey(storageId) : null, {
    refreshInterval: (latest) => (latest?.some((c) => c.status === 'pending') ? 2000 : 15_000),
  });
  const [setpoint, setSetpoint] = useState<number | null>(null);

  if (!storageId || error)
    return (
      <Result
        status="warning"
        title={t('notFound')}
        extra={<Button onClick={() => router.push('/storage/list')}>{t('back')}</Button>}
      />
    );
  if (!storage) return <Skeleton active />;
  if (!storage.controller) return <Result status="info" title={t('command.noController')} />;

  const setpointInRange = inRange(setpoint, SETPOINT_MIN, SETPOINT_MAX);
  const send = async (action: ControlAction, value: number | null, label: string, confirmOffline = false) => {
    try {
      await sendControl({ storageId: storage.id, action, value, confirmOffline }, { handleErrors: false });
      void commands.mutate();
    } catch (failure) {
      if (failure instanceof ApiError && failure.failure.code === OFFLINE_PROMPT) {
        modal.confirm({
          title: t('command.offline'),
          okText: t('yes'),
          cancelText: t('no'),
          onOk: () => send(action, value, label, true),
          okButtonProps: { 'data-testid': 'control-offline-ok' } as ButtonProps,
        });
      } else if (failure instanceof ApiError) message.error(failure.message);
    }
  };
  const confirm = (action: ControlAction, value: number | null, label: string) =>
    modal.confirm({
      title: t('command.confirm', { action: label }),
      okText: t('ok'),
      cancelText: t('cancel'),
      onOk: () => send(action, value, label),
      okButtonProps: { 'data-testid': 'control-confirm-ok' } as ButtonProps,
    });
  const button = (action: ControlAction, value: number | null, key: string) => (
    <Permitted route="storage.list" action="edit" show>
      <Button
        onClick={() => confirm(action, value, t(`command.${key}`))}
        data-testid={`control-${key}`}
        disabled={!storage.writable}
      >
        {t(`command.${key}`)}
      </Button>
    </Permitted>
  );

  return (
    <div data-testid="cloud-control">
      <Space wrap align="center" style={{ marginBottom: 12 }}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          onClick={() => router.push(`/storage/detail/${storage.id}`)}
          aria-label={t('back')}
        />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title.cloudControl')} · {storage.storageName}
        </Typography.Title>
        <Tag color={storage.controller.online ? 'success' : 'default'} data-testid="control-online">
          {storage.controller.online ? t('overview.online') : t('overview.offline')}
        </Tag>
      </Space>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <LiveState storageId={storage.id} />
        <Card size="small">
          <Space wrap>
            {/* No min/max: a clamped setpoint would be sent to the freezer unseen (issue 47); refused instead. */}
            <InputNumber
              step={0.5}
              status={setpointInRange ? undefined : 'error'}
              value={setpoint}
              onChange={(value) => setSetpoint(value)}
              addonAfter="°C"
              data-testid="control-setpoint-value"
            />
            <NumberRangeError value={setpoint} min={SETPOINT_MIN} max={SETPOINT_MAX} />
            <Permitted route="storage.list" action="edit" show>
              <Button
                type="primary"
                disabled={setpoint === null || !setpointInRange || !storage.writable}
                onClick={() => confirm('setpoint', setpoint, `${t('command.setpoint')} ${setpoint} °C`)}
                data-testid="control-setpoint"
              >
                {t('command.setpoint')}
              </Button>
            </Permitted>
            {button('compressor', 1, 'compressorOn')}
            {button('compressor', 0, 'compressorOff')}
            {button('defrost', 1, 'defrost')}
            {button('light', 1, 'lightOn')}
            {button('light', 0, 'lightOff')}
          </Space>
        </Card>
        <Card size="small" title={t('command.history')}>
          <Table<StorageCommand>
            rowKey="id"
            data-testid="control-commands"
            dataSource={commands.data ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            columns={[
              { key: 'action', title: t('alarm.kind'), render: (_, c) => t(`command.action.${c.action}`) },
              { key: 'value', title: t('command.value'), render: (_, c) => c.value ?? '-' },
              {
                key: 'status',
                title: t('alarm.status'),
                render: (_, c) => (
                  <Tag color={STATUS_COLOR[c.status]} data-testid="control-command-status" data-status={c.status}>
                    {t(`command.status.${c.status}`)}
                  </Tag>
                ),
              },
              { key: 'operator', title: t('command.operator'), dataIndex: 'operator' },
              { key: 'time', title: t('command.time'), render: (_, c) => formatTime(c.gmtCreate) },
              { key: 'acked', title: t('command.acked'), render: (_, c) => formatTime(c.ackedAt), responsive: ['md'] },
            ]}
          />
        </Card>
        <Card size="small" title={t('tab.energy')}>
          <EnergyTab storage={storage} />
        </Card>
      </Space>
    </div>
  );
}

function LiveState({ storageId }: { storageId: number }) {
  const { data: storage } = useRead<Storage>(storageDetailKey('storage', storageId));
  return storage ? <LiveStateOf storage={storage} /> : null;
}

function LiveStateOf({ storage }: { storage: Parameters<typeof useOverview>[0] }) {
  const { data } = useOverview(storage);
  return data ? <ControllerState overview={data} /> : <Card loading />;
}
