import { App, Button, List, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import styled from 'styled-components';
import { batchAction, type BatchAction, type BatchResult, type Device } from '@/api/device';
import { BatchParamsModal } from './BatchParamsModal';

/** The batch actions of the device list, in toolbar order; the last two are confirmed as dangerous. */
export const BATCH_ACTIONS: BatchAction[] = ['enable', 'stopUsing', 'pin', 'unpin', 'scrap', 'delete'];
const CONFIRMED: BatchAction[] = ['enable', 'stopUsing', 'scrap', 'delete'];
const DANGEROUS: BatchAction[] = ['scrap', 'delete'];

/** The label / confirmation key of a batch action (stopUsing is "disable" in the texts). */
export function actionKey(action: BatchAction): string {
  return action === 'stopUsing' ? 'disable' : action;
}

/** Results with the device names, refusals first. */
export function describeResults(
  results: BatchResult[],
  devices: Pick<Device, 'id' | 'deviceName'>[],
): (BatchResult & { name: string })[] {
  const names = new Map(devices.map((device) => [device.id, device.deviceName]));
  return results
    .map((result) => ({ ...result, name: names.get(result.deviceId) ?? `#${result.deviceId}` }))
    .sort((a, b) => Number(a.ok) - Number(b.ok));
}

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  padding: 8px 12px;
  margin-bottom: 12px;
  border: 1px solid ${({ theme }) => theme.colors.primary};
  border-radius: ${({ theme }) => theme.radius}px;
  background: ${({ theme }) => theme.colors.primaryBg};
`;

interface BatchBarProps {
  selected: number[];
  /** Devices known to the page (names for the results). */
  devices: Device[];
  onClear: () => void;
  onDone: () => void;
}

/**
 * Batch actions on the chosen devices: enable, disable, pin, unpin, scrap, delete. Each device
 * answers on its own; when some are refused the list of results says which and why.
 */
/** Batch parameters need one model that takes them: the reason the button is off, or null. */
export function batchParamsBlocker(chosen: Pick<Device, 'typeName' | 'batchParam'>[]): 'oneModel' | 'notBatch' | null {
  if (new Set(chosen.map((device) => device.typeName)).size !== 1) return 'oneModel';
  return chosen.every((device) => device.batchParam) ? null : 'notBatch';
}

export function BatchBar({ selected, devices, onClear, onDone }: BatchBarProps) {
  const { t } = useTranslation('device');
  const { modal, message } = App.useApp();
  const [running, setRunning] = useState<BatchAction | null>(null);
  const [settingParams, setSettingParams] = useState(false);
  if (!selected.length) return null;
  const chosen = devices.filter((device) => selected.includes(device.id));
  const paramsBlocker = chosen.length === selected.length ? batchParamsBlocker(chosen) : 'oneModel';

  const showResults = (results: BatchResult[]) => {
    const refused = results.filter((result) => !result.ok);
    onDone();
    if (!refused.length) {
      void message.success(t('batch.allDone', { count: results.length }));
      onClear();
      return;
    }
    modal.info({
      title: t('batch.resultTitle', { ok: results.length - refused.length, failed: refused.length }),
      width: 560,
      okText: t('batch.close'),
      content: (
        <List
          size="small"
          data-testid="batch-results"
          dataSource={describeResults(results, devices)}
          renderItem={(result) => (
            <List.Item>
              <Space wrap>
                <Typography.Text strong>{result.name}</Typography.Text>
                <Tag color={result.ok ? 'success' : 'error'}>{t(result.ok ? 'batch.ok' : 'batch.failed')}</Tag>
                {result.msg ? <Typography.Text type="secondary">{result.msg}</Typography.Text> : null}
              </Space>
            </List.Item>
          )}
        />
      ),
    });
    onClear();
  };

  const run = async (action: BatchAction) => {
    setRunning(action);
    try {
      showResults(await batchAction(action, selected));
    } catch {
      // Shown by the request client.
    } finally {
      setRunning(null);
    }
  };

  const start = (action: BatchAction) => {
    if (!CONFIRMED.includes(action)) {
      void run(action);
      return;
    }
    modal.confirm({
      title: t('batch.confirmTitle', { count: selected.length }),
      content: t(`confirm.${actionKey(action)}`),
      okText: t(`action.${actionKey(action)}`),
      cancelText: t('action.cancel'),
      okButtonProps: { danger: DANGEROUS.includes(action) },
      onOk: () => run(action),
    });
  };

  return (
    <Bar data-testid="batch-bar">
      <Typography.Text strong>{t('batch.selected', { count: selected.length })}</Typography.Text>
      {BATCH_ACTIONS.map((action) => (
        <Button
          key={action}
          size="small"
          danger={DANGEROUS.includes(action)}
          loading={running === action}
          disabled={running !== null && running !== action}
          onClick={() => start(action)}
          data-testid={`batch-${action}`}
        >
          {t(`action.${actionKey(action)}`)}
        </Button>
      ))}
      <Tooltip title={paramsBlocker ? t(`batchParams.${paramsBlocker}`) : undefined}>
        <Button
          size="small"
          disabled={paramsBlocker !== null || running !== null}
          onClick={() => setSettingParams(true)}
          data-testid="batch-params-open"
        >
          {t('batchParams.open')}
        </Button>
      </Tooltip>
      <BatchParamsModal
        open={settingParams}
        deviceIds={selected}
        onClose={() => setSettingParams(false)}
        onResults={showResults}
      />
      <Button size="small" type="link" onClick={onClear}>
        {t('batch.clear')}
      </Button>
    </Bar>
  );
}
