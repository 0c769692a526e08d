import { App, Button, Progress, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { deleteFile, downloadFile, saveBlob, type ExportFile, type FileStatus } from '@/api/report';
import { formatTime } from '@/lib/format';
import { useExportFiles } from '@/components/report/useExportFiles';
import { DataList } from '@/components/ui/DataList';
import { DOWNLOAD_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { formatSize } from './helpers';
import { ScheduledReportsView } from './ScheduledReportsView';

const STATUS_COLOURS: Record<FileStatus, string> = { generating: 'processing', generated: 'success', failed: 'error' };

export function FileStatusCell({ file }: { file: ExportFile }) {
  const { t } = useTranslation('report');
  if (file.status === 'generating')
    return (
      <Space size={6} data-testid="file-status" data-status={file.status}>
        <Tag color={STATUS_COLOURS.generating}>{t('status.generating')}</Tag>
        <Progress percent={file.progress} size="small" style={{ width: 90, margin: 0 }} />
      </Space>
    );
  const tag = (
    <Tag color={STATUS_COLOURS[file.status]} data-testid="file-status" data-status={file.status}>
      {t(`status.${file.status}`)}
    </Tag>
  );
  return file.status === 'failed' && file.reason ? (
    <Space size={4} wrap>
      {tag}
      <Tooltip title={file.reason}>
        <Typography.Text type="danger" ellipsis style={{ maxWidth: 220 }} data-testid="file-reason">
          {file.reason}
        </Typography.Text>
      </Tooltip>
    </Space>
  ) : (
    tag
  );
}

/** The files of the account: generating (with progress), generated, failed with a reason; download and delete. */
export function FileTable() {
  const { t } = useTranslation('report');
  const { modal } = App.useApp();
  const { rows, loading, pagination, mutate } = useExportFiles();
  const [downloading, setDownloading] = useState<number | null>(null);

  // Spec 9: a file download is debounced 1,000 ms (a double click downloads once).
  const download = useDebouncedCallback(async (file: ExportFile) => {
    setDownloading(file.id);
    try {
      saveBlob(await downloadFile(file.id), file.fileName);
    } catch {
      // Shown by the request client (expired service, file removed ...).
    } finally {
      setDownloading(null);
    }
  }, DOWNLOAD_DEBOUNCE_MS);

  const remove = (file: ExportFile) =>
    modal.confirm({
      content: t('confirm.deleteFile', { name: file.fileName }),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: { danger: true },
      onOk: () =>
        deleteFile(file.id).then(
          () => void mutate(),
          () => undefined,
        ),
    });

  return (
    <DataList<ExportFile>
      rowKey="id"
      loading={loading}
      data={rows}
      pagination={pagination}
      testId="file-table"
      rowProps={(file) => ({ 'data-file-id': file.id })}
      columns={[
        {
          key: 'name',
          title: t('column.fileName'),
          card: 'title',
          long: 260,
          render: (_, file) => <span data-testid="file-name">{file.fileName}</span>,
        },
        { key: 'type', title: t('column.fileType'), render: (_, file) => file.fileType.toUpperCase() },
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
        { key: 'expires', title: t('column.expireTime'), render: (_, file) => formatTime(file.expireTime) },
        {
          key: 'actions',
          title: t('column.actions'),
          render: (_, file) => (
            <Space size={4}>
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
              <Button type="link" size="small" danger onClick={() => remove(file)} data-testid="file-delete">
                {t('action.delete')}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}

/** /consumer/download: the download centre, and the account's scheduled reports beside it. */
export function DownloadCenterView() {
  const { t } = useTranslation('report');
  const [tab, setTab] = useState('files');
  return (
    <div data-testid="download-center">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('center.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('center.hint')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'files', label: t('center.files'), children: <FileTable /> },
          { key: 'scheduled', label: t('scheduled.title'), children: <ScheduledReportsView embedded /> },
        ]}
      />
    </div>
  );
}
