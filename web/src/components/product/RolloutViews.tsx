import { Alert, Descriptions, Form, Progress, Select, Space, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import {
  cancelRollout,
  fleetDevicePageKey,
  insertRollout,
  retryRollout,
  rolloutDetailKey,
  rolloutPageKey,
  type FleetDevice,
  type Firmware,
  type Rollout,
  type RolloutDetail,
  type RolloutStatus,
  type TargetState,
  type UpgradeTarget,
} from '@/api/product';
import type { Page } from '@/components/ui/table';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import {
  groupPhase,
  groupSizes,
  minutesLeft,
  parseStages,
  progressOf,
  stagesProblem,
  TARGET_STATES,
  UPGRADE_RULES,
} from './upgrade';

const ROUTE = 'operation.product.version';
const REFRESH_MS = 5000;
/** antd's status colours (the theme's success / error / processing / warning tokens). */
const STATUS_TAG: Record<RolloutStatus, string> = {
  running: 'processing',
  completed: 'success',
  stopped: 'error',
  cancelled: 'default',
};
const STATE_TAG: Record<TargetState, string> = {
  waiting: 'default',
  queued: 'default',
  downloading: 'processing',
  installing: 'processing',
  installed: 'success',
  failed: 'error',
};

/** Devices of one model, searched by name or GUID (the operator's device list). */
function DevicePicker({
  deviceTypeId,
  value,
  onChange,
}: {
  deviceTypeId: number;
  value?: number[];
  onChange?: (ids: number[]) => void;
}) {
  const { t } = useTranslation('product');
  const [keyword, setKeyword] = useState('');
  const { data } = useRead<Page<FleetDevice>>(
    fleetDevicePageKey({ start: 1, pageSize: 50, deviceTypeId, keyword: keyword || undefined }),
  );
  return (
    <Select
      mode="multiple"
      showSearch
      filterOption={false}
      value={value}
      placeholder={t('upgrade.devicesPlaceholder')}
      onSearch={setKeyword}
      onChange={onChange}
      data-testid="upgrade-devices"
      options={(data?.list ?? []).map((d) => ({
        value: d.id,
        label: `${d.deviceName ?? d.deviceGuid} · ${d.deviceGuid} · ${d.firmwareVersion ?? '-'}`,
      }))}
    />
  );
}

/** What the groups give for the devices chosen: "1 + 4 + 15 devices". */
function GroupPreview({ count, stagesText }: { count: number; stagesText: string }) {
  const { t } = useTranslation('product');
  const stages = parseStages(stagesText ?? '');
  if (stagesProblem(stages) || !stages) return null;
  return (
    <Typography.Text type="secondary">
      {t('upgrade.groupPreview', { sizes: groupSizes(count, stages).join(' + '), count })}
    </Typography.Text>
  );
}

type IssueValues = {
  scope: 'devices' | 'all';
  deviceIds?: number[];
  stages: string;
  failureThreshold: number;
  ratePerMinute: number;
};

/** Issue an upgrade of `firmware`: to devices chosen (one or more, of its model) or the whole model, in groups. */
export function IssueUpgradeDrawer({
  firmware,
  onClose,
  onIssued,
}: {
  firmware: Firmware;
  onClose: () => void;
  onIssued: () => void;
}) {
  const { t } = useTranslation('product');
  const { data: modelDevices } = useRead<Page<FleetDevice>>(
    fleetDevicePageKey({ start: 1, pageSize: 1, deviceTypeId: firmware.deviceTypeId }),
  );
  const stagesRule = {
    validator: (_: unknown, text: string) => {
      const problem = stagesProblem(parseStages(text ?? ''));
      return problem
        ? Promise.reject(new Error(t(`upgrade.stagesRule.${problem}`, { max: UPGRADE_RULES.maxStages })))
        : Promise.resolve();
    },
  };
  const fields: DrawerField[] = [
    {
      type: 'text',
      name: 'version',
      label: t('field.latestVersionValue'),
      format: () => `${firmware.latestVersionValue} · ${firmware.typeName}`,
    },
    {
      type: 'radio',
      name: 'scope',
      label: t('upgrade.scope'),
      options: [
        { value: 'devices', label: t('upgrade.scopeDevices') },
        { value: 'all', label: t('upgrade.scopeAll', { count: modelDevices?.total ?? 0 }) },
      ],
    },
    {
      type: 'slot',
      name: 'deviceIds',
      label: t('upgrade.devices'),
      extra: t('upgrade.sameModel'),
      hidden: (v) => v.scope === 'all',
      rules: [{ required: true, type: 'array', min: 1, message: t('upgrade.chooseDevices') }],
      render: () => <DevicePicker deviceTypeId={firmware.deviceTypeId} />,
    },
    {
      type: 'input',
      name: 'stages',
      label: t('upgrade.stages'),
      clearSymbols: false,
      extra: t('upgrade.stagesHint'),
      rules: [{ required: true, message: t('required') }, stagesRule],
    },
    {
      type: 'slot',
      name: 'preview',
      render: (form) => (
        <Form.Item noStyle shouldUpdate>
          {() => {
            const scope = form.getFieldValue('scope');
            const count =
              scope === 'all'
                ? (modelDevices?.total ?? 0)
                : ((form.getFieldValue('deviceIds') as number[] | undefined)?.length ?? 0);
            return <GroupPreview count={count} stagesText={form.getFieldValue('stages')} />;
          }}
        </Form.Item>
      ),
    },
    {
      type: 'number',
      name: 'failureThreshold',
      label: t('upgrade.failureThreshold'),
      min: UPGRADE_RULES.threshold.min,
      max: UPGRADE_RULES.threshold.max,
      precision: 0,
      addonAfter: '%',
      rules: [{ required: true, message: t('required') }],
    },
    {
      type: 'number',
      name: 'ratePerMinute',
      label: t('upgrade.ratePerMinute'),
      min: UPGRADE_RULES.rate.min,
      max: UPGRADE_RULES.rate.max,
      precision: 0,
      addonAfter: t('upgrade.perMinute'),
      rules: [{ required: true, message: t('required') }],
    },
  ];
  return (
    <DrawerForm<IssueValues>
      open
      title={t('upgrade.issue')}
      fields={fields}
      initialValues={{ scope: 'devices', stages: '100', failureThreshold: 20, ratePerMinute: 60 }}
      onClose={onClose}
      onSubmit={async (v) => {
        await insertRollout({
          firmwareId: firmware.id,
          deviceIds: v.scope === 'all' ? [] : v.deviceIds,
          allDevices: v.scope === 'all',
          stages: parseStages(v.stages) ?? [],
          failureThreshold: v.failureThreshold,
          ratePerMinute: v.ratePerMinute,
        });
        onIssued();
      }}
    />
  );
}

/** The groups of a rollout: each group's share, devices and how far it is. */
function Groups({ rollout }: { rollout: Rollout }) {
  const { t } = useTranslation('product');
  const { token } = theme.useToken();
  return (
    <Space orientation="vertical" size={2} style={{ width: '100%', minWidth: 220 }}>
      {rollout.groups.map((group) => {
        const progress = progressOf(group.counts);
        const phase = groupPhase(group, rollout.currentStage);
        return (
          <div key={group.stage} data-testid={`rollout-group-${group.stage}`}>
            <Typography.Text type={phase === 'later' ? 'secondary' : undefined}>
              {t('upgrade.group', { n: group.stage + 1, percent: group.percent, devices: group.devices })} ·{' '}
              {t(`upgrade.phase.${phase}`)}
            </Typography.Text>
            <Progress
              size="small"
              percent={progress.percent}
              success={{
                percent: progress.total ? Math.round((progress.installed * 100) / progress.total) : 0,
                strokeColor: token.colorSuccess,
              }}
              strokeColor={progress.failed ? token.colorError : token.colorPrimary}
              format={() => `${progress.installed + progress.failed}/${progress.total}`}
            />
          </div>
        );
      })}
    </Space>
  );
}

function Counts({ counts }: { counts: Partial<Record<TargetState, number>> }) {
  const { t } = useTranslation('product');
  return (
    <Space size={[4, 4]} wrap>
      {TARGET_STATES.filter((state) => counts[state]).map((state) => (
        <Tag key={state} color={STATE_TAG[state]}>
          {t(`upgrade.state.${state}`)} {counts[state]}
        </Tag>
      ))}
    </Space>
  );
}

/** Every device of a rollout with its state; refreshed while the rollout runs. */
function RolloutTargets({
  rolloutId,
  running,
  onChanged,
}: {
  rolloutId: number;
  running: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation('product');
  const { data, mutate } = useRead<RolloutDetail>(rolloutDetailKey(rolloutId), {
    refreshInterval: running ? REFRESH_MS : 0,
  });
  const retry = (ids?: number[]) =>
    retryRollout(rolloutId, ids).then(() => {
      void mutate();
      onChanged();
    });
  const columns: ListColumn<UpgradeTarget>[] = [
    {
      key: 'device',
      title: t('upgrade.device'),
      render: (_, d) => `${d.deviceName ?? '-'} (${d.deviceGuid})`,
      card: 'title',
    },
    { key: 'stage', title: t('upgrade.groupColumn'), render: (_, d) => d.stage + 1 },
    {
      key: 'state',
      title: t('upgrade.stateColumn'),
      important: true,
      render: (_, d) => <Tag color={STATE_TAG[d.state]}>{t(`upgrade.state.${d.state}`)}</Tag>,
    },
    {
      key: 'versions',
      title: t('upgrade.versions'),
      render: (_, d) => `${d.fromVersion ?? '-'} → ${d.firmwareVersion ?? '-'}`,
    },
    {
      key: 'wait',
      title: t('upgrade.wait'),
      render: (_, d) => {
        if (!['queued', 'downloading', 'installing'].includes(d.state) || !data) return '-';
        return t('upgrade.minutesLeft', {
          minutes: minutesLeft(d.sentTime, data.timeoutMinutes) ?? data.timeoutMinutes,
        });
      },
    },
    { key: 'sent', title: t('upgrade.sentTime'), render: (_, d) => formatTime(d.sentTime), desktopOnly: true },
    { key: 'error', title: t('upgrade.error'), dataIndex: 'error', long: 30 },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, d) =>
        d.state === 'failed' ? (
          <ConfirmAction
            route={ROUTE}
            action="edit"
            danger={false}
            title={t('upgrade.retryConfirm', { count: 1 })}
            onConfirm={() => retry([d.deviceId])}
          >
            {t('upgrade.retry')}
          </ConfirmAction>
        ) : null,
    },
  ];
  if (!data) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {data.stopReason && <Alert type="error" showIcon message={data.stopReason} />}
      <Descriptions size="small" column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('upgrade.failureThreshold')}>{data.failureThreshold}%</Descriptions.Item>
        <Descriptions.Item label={t('upgrade.ratePerMinute')}>
          {data.ratePerMinute} {t('upgrade.perMinute')}
        </Descriptions.Item>
        <Descriptions.Item label={t('upgrade.timeout')}>
          {t('upgrade.minutesLeft', { minutes: data.timeoutMinutes })}
        </Descriptions.Item>
      </Descriptions>
      <DataList<UpgradeTarget>
        rowKey="deviceId"
        columns={columns}
        data={data.targets}
        size="small"
        pagination={{ pageSize: 20 }}
        testId={`rollout-targets-${rolloutId}`}
      />
      {data.counts.failed > 0 && data.status !== 'cancelled' && (
        <ConfirmAction
          route={ROUTE}
          action="edit"
          danger={false}
          title={t('upgrade.retryConfirm', { count: data.counts.failed })}
          onConfirm={() => retry()}
        >
          {t('upgrade.retryAll')}
        </ConfirmAction>
      )}
    </Space>
  );
}

/** The rollouts, newest first, with their groups, counts per state and every device on demand. */
export function RolloutList() {
  const { t } = useTranslation('product');
  const [status, setStatus] = useState<RolloutStatus | undefined>(undefined);
  const { data, loading, pagination, mutate } = usePagedQuery<Rollout, { status?: RolloutStatus }>(rolloutPageKey, {
    status,
  });
  const columns: ListColumn<Rollout>[] = [
    {
      key: 'version',
      title: t('field.latestVersionValue'),
      render: (_, r) => `${r.latestVersionValue} · ${r.typeName}`,
      card: 'title',
    },
    {
      key: 'status',
      title: t('upgrade.status'),
      important: true,
      render: (_, r) => <Tag color={STATUS_TAG[r.status]}>{t(`upgrade.rolloutStatus.${r.status}`)}</Tag>,
    },
    { key: 'groups', title: t('upgrade.groups'), render: (_, r) => <Groups rollout={r} /> },
    { key: 'counts', title: t('upgrade.counts'), render: (_, r) => <Counts counts={r.counts} /> },
    { key: 'gmtCreate', title: t('field.gmtCreate'), render: (_, r) => formatTime(r.gmtCreate), desktopOnly: true },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, r) =>
        r.status === 'running' || r.status === 'stopped' ? (
          <ConfirmAction
            route={ROUTE}
            action="edit"
            title={t('upgrade.cancelConfirm')}
            onConfirm={() => cancelRollout(r.id).then(() => mutate())}
          >
            {t('upgrade.cancel')}
          </ConfirmAction>
        ) : null,
    },
  ];
  const anyRunning = data.some((r) => r.status === 'running');
  // While a rollout runs, its progress is read again every few seconds.
  useEffect(() => {
    if (!anyRunning) return undefined;
    const timer = setInterval(() => void mutate(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [anyRunning, mutate]);
  return (
    <DataList<Rollout>
      rowKey="id"
      columns={columns}
      data={data}
      loading={loading}
      pagination={pagination}
      testId="rollout-list"
      filters={
        <Select
          allowClear
          placeholder={t('upgrade.status')}
          style={{ width: 160 }}
          onChange={(v?: RolloutStatus) => setStatus(v)}
          options={(['running', 'completed', 'stopped', 'cancelled'] as const).map((value) => ({
            value,
            label: t(`upgrade.rolloutStatus.${value}`),
          }))}
        />
      }
      expandable={{
        expandedRowRender: (r) => (
          <RolloutTargets rolloutId={r.id} running={r.status === 'running'} onChanged={() => void mutate()} />
        ),
      }}
    />
  );
}
