import { App, Button, Progress, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { deleteFile, downloadFile, saveBlob, type ExportFile, type FileStatus } from '@/api/report';
import { formatTime } from '@/components/device/format';
import { useExportFiles } from '@/hooks/useExportFiles';
import { useViewport } from '@/hooks/useViewport';
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
  // Phones: name with status, size and time under it, then the actions; no sideways scrolling.
  const mobile = useViewport() === 'mobile';

  const download = async (file: ExportFile) => {
    setDownloading(file.id);
    try {
      saveBlob(await downloadFile(file.id), file.fileName);
    } catch {
      // Shown by the request client (expired service, file removed ...).
    } finally {
      setDownloading(null);
    }
  };

  const remove = (file: ExportFile) =>
    modal.confirm({
      content: t('confirm.deleteFile', { name: file.fileName }),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: { danger: true },
      onOk: () => deleteFile(file.id).then(() => void mutate(), () => undefined),
    });

  return (
    <Table<ExportFile>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={rows}
      pagination={pagination}
      scroll={mobile ? undefined : { x: 'max-content' }}
      data-testid="file-table"
      onRow={(file) => ({ 'data-file-id': file.id }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        {
          key: 'name',
          title: t('column.fileName'),
          render: (_, file) =>
            mobile ? (
              <Space orientation="vertical" size={2}>
                <span data-testid="file-name" style={{ overflowWrap: 'anywhere' }}>
                  {file.fileName}
                </span>
                <FileStatusCell file={file} />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatSize(file.fileSize)} · {formatTime(file.createTime)}
                </Typography.Text>
              </Space>
            ) : (
              <span data-testid="file-name">{file.fileName}</span>
            ),
        },
        ...(mobile
          ? []
          : [
              { key: 'type', title: t('column.fileType'), render: (_: unknown, file: ExportFile) => file.fileType.toUpperCase() },
              { key: 'status', title: t('column.status'), render: (_: unknown, file: ExportFile) => <FileStatusCell file={file} /> },
              { key: 'size', title: t('column.size'), render: (_: unknown, file: ExportFile) => formatSize(file.fileSize) },
              { key: 'created', title: t('column.createTime'), render: (_: unknown, file: ExportFile) => formatTime(file.createTime) },
              { key: 'expires', title: t('column.expireTime'), render: (_: unknown, file: ExportFile) => formatTime(file.expireTime) },
            ]),
        {
          key: 'actions',
          title: t('column.actions'),
          fixed: mobile ? undefined : ('right' as const),
          render: (_: unknown, file: ExportFile) => (
            <Space size={4} orientation={mobile ? 'vertical' : 'horizontal'}>
              <Button type="link" size="small" disabled={file.status !== 'generated'} loading={downloading === file.id} onClick={() => void download(file)} data-testid="file-download">
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
