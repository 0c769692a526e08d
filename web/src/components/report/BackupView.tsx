import { PlusOutlined } from '@ant-design/icons';
import { App, Button, DatePicker, Form, InputNumber, Modal, Select, Space, Switch, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useState } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError } from '@/api/errors';
import {
  backupArchivesKey,
  backupPageKey,
  deleteBackup,
  downloadFile,
  insertBackup,
  runBackupNow,
  saveBlob,
  updateBackup,
  type BackupSchedule,
  type BackupScheduleInput,
  type ExportFile,
  type Frequency,
} from '@/api/report';
import type { Page } from '@/components/ui/table';
import { showServerErrors } from '@/lib/serverErrors';
import { formatTime, isoWithOffset } from '@/lib/format';
import { DataList } from '@/components/ui/DataList';
import { DOWNLOAD_DEBOUNCE_MS } from '@/components/ui/constants';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { FileStatusCell } from './DownloadCenterView';
import { anyGenerating, formatSize, GENERATING_REFRESH_MS, MAX_EXPORT_DAYS } from './helpers';
import { rangeRules } from '@/components/ui/rangeRules';

const FREQUENCIES: Frequency[] = ['daily', 'weekly', 'monthly'];
/** The api's limits (api/report/schemas.py). */
export const BACKUP_NAME_MAX = 20;
export const BACKUP_KEEP_MAX = 30;

const archivesKey = (id: number) => backupArchivesKey({ id, start: 1, pageSize: BACKUP_KEEP_MAX });

interface BackupValues {
  name: string;
  frequency: Frequency;
  rangeDays: number;
  keepCount: number;
  enabled: boolean;
  nextRunTime: Dayjs;
}

function BackupModal({
  schedule,
  onClose,
  onSaved,
}: {
  schedule: BackupSchedule | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('report');
  const { message } = App.useApp();
  const [form] = Form.useForm<BackupValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: BackupValues) => {
    const body: BackupScheduleInput = {
      name: values.name.trim(),
      frequency: values.frequency,
      rangeDays: values.rangeDays,
      keepCount: values.keepCount,
      enabled: values.enabled,
      nextRunTime: isoWithOffset(values.nextRunTime.toDate()),
    };
    setSaving(true);
    try {
      if (schedule) await updateBackup({ ...body, id: schedule.id }, { handleErrors: false });
      else await insertBackup(body, { handleErrors: false });
      onSaved();
    } catch (error) {
      if (!showServerErrors(form, error) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };
  const { submit: submitOnce } = useFormSubmit(null, submit);

  const initial: Partial<BackupValues> = schedule
    ? { ...schedule, nextRunTime: dayjs(schedule.nextRunTime) }
    : {
        frequency: 'weekly',
        rangeDays: 7,
        keepCount: 4,
        enabled: true,
        nextRunTime: dayjs().add(1, 'day').startOf('day').hour(2),
      };

  return (
    <Modal
      open
      title={t(schedule ? 'backup.edit' : 'backup.add')}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={560}
      okButtonProps={{ 'data-testid': 'backup-save' } as Record<string, string>}
    >
      <Form<BackupValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={submitOnce}
        data-testid="backup-form"
      >
        <Form.Item
          name="name"
          label={t('backup.name')}
          rules={[
            { required: true, whitespace: true, message: t('form.required') },
            { max: BACKUP_NAME_MAX, message: t('form.max', { max: BACKUP_NAME_MAX }) },
          ]}
        >
          <SymbolFreeInput maxLength={BACKUP_NAME_MAX} showCount data-testid="backup-name" />
        </Form.Item>
        <Space wrap size="middle" style={{ width: '100%' }}>
          <Form.Item
            name="frequency"
            label={t('scheduled.frequency')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <Select
              style={{ minWidth: 140 }}
              options={FREQUENCIES.map((value) => ({ value, label: t(`frequency.${value}`) }))}
              data-testid="backup-frequency"
            />
          </Form.Item>
          <Form.Item
            name="rangeDays"
            label={t('backup.rangeDays')}
            tooltip={t('backup.rangeHint')}
            rules={[{ required: true, message: t('form.required') }, ...rangeRules(t, 1, MAX_EXPORT_DAYS)]}
          >
            <InputNumber
              precision={0}
              addonAfter={t('backup.days')}
              style={{ width: 160 }}
              data-testid="backup-range"
            />
          </Form.Item>
          <Form.Item
            name="keepCount"
            label={t('backup.keepCount')}
            tooltip={t('backup.keepHint')}
            rules={[{ required: true, message: t('form.required') }, ...rangeRules(t, 1, BACKUP_KEEP_MAX)]}
          >
            <InputNumber precision={0} style={{ width: 120 }} data-testid="backup-keep" />
          </Form.Item>
        </Space>
        <Form.Item
          name="nextRunTime"
          label={t('backup.nextRunTime')}
          rules={[{ required: true, message: t('form.required') }]}
        >
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="enabled" label={t('backup.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The archives of one schedule (the newest `keepCount`), asked for again while one is generating. */
function Archives({ schedule }: { schedule: BackupSchedule }) {
  const { t } = useTranslation('report');
  const [downloading, setDownloading] = useState<number | null>(null);
  // Polls while a row is generating; a run started meanwhile (a revalidation from "Back up now") starts it.
  const [generating, setGenerating] = useState(false);
  const { data, isLoading } = useRead<Page<ExportFile>>(archivesKey(schedule.id), {
    refreshInterval: generating ? GENERATING_REFRESH_MS : 0,
    onSuccess: (page) => setGenerating(anyGenerating(page.list)),
  });
  // Spec 9: a file download is debounced 1,000 ms.
  const download = useDebouncedCallback(async (file: ExportFile) => {
    setDownloading(file.id);
    try {
      saveBlob(await downloadFile(file.id), file.fileName);
    } catch {
      // Shown by the request client.
    } finally {
      setDownloading(null);
    }
  }, DOWNLOAD_DEBOUNCE_MS);

  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('backup.archivesOf', { name: schedule.name, count: schedule.keepCount })}
      </Typography.Title>
      <DataList<ExportFile>
        rowKey="id"
        loading={isLoading}
        data={data?.list ?? []}
        pagination={false}
        testId="backup-archives"
        rowProps={(file) => ({ 'data-file-id': file.id })}
        emptyText={t('backup.noArchives')}
        columns={[
          {
            key: 'name',
            title: t('column.fileName'),
            card: 'title',
            long: 260,
            render: (_, file) => <span data-testid="file-name">{file.fileName}</span>,
          },
          {
            key: 'status',
            title: t('column.status'),
            important: true,
            render: (_, file) => <FileStatusCell file={file} />,
          },
          { key: 'size', title: t('column.size'), render: (_, file) => formatSize(file.fileSize) },
          {
            key: 'created',
            title: t('column.createTime'),
            important: true,
            render: (_, file) => formatTime(file.createTime),
          },
          {
            key: 'hash',
            title: t('backup.checksum'),
            long: 160,
            desktopOnly: true,
            render: (_, file) =>
              file.contentHash ? <Typography.Text code>{file.contentHash.slice(0, 16)}</Typography.Text> : '-',
          },
          {
            key: 'actions',
            title: t('column.actions'),
            render: (_, file) => (
              <Button
                type="link"
                size="small"
                disabled={file.status !== 'generated'}
                loading={downloading === file.id}
                onClick={() => download(file)}
                data-testid="file-download"
              >
                {t('action.download')}
              </Button>
            ),
          },
        ]}
      />
    </Space>
  );
}

/** Scheduled backup: periodic zip archives of the account's devices, settings and readings, the newest N kept. */
export function BackupView() {
  const { t } = useTranslation('report');
  const { message, modal } = App.useApp();
  const [editing, setEditing] = useState<{ schedule: BackupSchedule | null } | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const filters = {};
  const { data, loading, pagination, mutate } = usePagedQuery<BackupSchedule, typeof filters>(backupPageKey, filters);
  const { mutate: revalidate } = useSWRConfig();
  const reload = useCallback(() => void mutate(), [mutate]);
  const shown = data.find((schedule) => schedule.id === selected) ?? data[0] ?? null;

  const remove = (schedule: BackupSchedule) =>
    modal.confirm({
      content: t('confirm.deleteBackup', { name: schedule.name }),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: { danger: true },
      onOk: () => deleteBackup(schedule.id).then(reload, () => undefined),
    });

  const runNow = async (schedule: BackupSchedule) => {
    try {
      await runBackupNow(schedule.id);
      message.success(t('backup.started'));
      setSelected(schedule.id);
      reload();
      void revalidate(archivesKey(schedule.id));
    } catch {
      // Shown by the request client.
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="scheduled-backups">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('backup.hint')}
      </Typography.Paragraph>
      <DataList<BackupSchedule>
        rowKey="id"
        loading={loading}
        data={data}
        pagination={pagination}
        testId="backup-table"
        rowProps={(schedule) => ({ 'data-backup-id': schedule.id })}
        actions={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ schedule: null })}
            data-testid="backup-add"
          >
            {t('backup.add')}
          </Button>
        }
        columns={[
          { key: 'name', title: t('backup.name'), dataIndex: 'name', long: 180, card: 'title' },
          {
            key: 'frequency',
            title: t('scheduled.frequency'),
            render: (_, schedule) => <Tag>{t(`frequency.${schedule.frequency}`)}</Tag>,
          },
          {
            key: 'range',
            title: t('backup.range'),
            render: (_, schedule) => t('backup.lastDays', { count: schedule.rangeDays }),
          },
          { key: 'keep', title: t('backup.keepCount'), render: (_, schedule) => schedule.keepCount },
          {
            key: 'enabled',
            title: t('backup.enabled'),
            render: (_, schedule) => (
              <Tag color={schedule.enabled ? 'success' : 'default'}>
                {t(schedule.enabled ? 'backup.on' : 'backup.off')}
              </Tag>
            ),
          },
          {
            key: 'next',
            title: t('backup.nextRunTime'),
            important: true,
            render: (_, schedule) => formatTime(schedule.nextRunTime),
          },
          {
            key: 'actions',
            title: t('column.actions'),
            render: (_, schedule) => (
              <Space size={4} wrap>
                <Button type="link" size="small" onClick={() => void runNow(schedule)} data-testid="backup-run-now">
                  {t('backup.runNow')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setSelected(schedule.id)}
                  data-testid="backup-show-archives"
                >
                  {t('backup.archives')}
                </Button>
                <Button type="link" size="small" onClick={() => setEditing({ schedule })}>
                  {t('action.edit')}
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(schedule)}>
                  {t('action.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {shown && <Archives key={shown.id} schedule={shown} />}
      {editing && (
        <BackupModal
          schedule={editing.schedule}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </Space>
  );
}
