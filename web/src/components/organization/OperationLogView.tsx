import { DatePicker, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { operationLogPage, type OperationLogEntry, type RowChange } from '@/api/organization';
import { formatTime } from '@/components/device/format';
import { usePagedQuery } from '@/hooks/usePagedQuery';

interface LogFilters {
  userName?: string;
  keyword?: string;
  startTime?: string;
  endTime?: string;
}

function Changes({ title, rows }: { title: string; rows: RowChange[] }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text strong>{title}</Typography.Text>
      {rows.length ? (
        rows.map((row) => (
          <pre key={`${row.table}-${row.id}`} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: '4px 0' }}>
            {`${row.table}#${row.id} ${JSON.stringify(row.values, null, 1)}`}
          </pre>
        ))
      ) : (
        <div>-</div>
      )}
    </div>
  );
}

/** /operation/log: every mutating call (who, what, when, target, before and after); read-only. */
export function OperationLogView() {
  const { t } = useTranslation('organization');
  const [filters, setFilters] = useState<LogFilters>({});
  const { data, loading, pagination } = usePagedQuery<OperationLogEntry, LogFilters>('operation-log', filters, (args) => operationLogPage(args));
  const columns: ColumnsType<OperationLogEntry> = [
    { key: 'time', title: t('log.time'), render: (_, row) => formatTime(row.gmtCreate) },
    { key: 'user', title: t('log.user'), dataIndex: 'userName' },
    { key: 'what', title: t('log.what'), render: (_, row) => <Space size={4}><Tag>{row.method}</Tag>{row.summary || row.action}</Space> },
    { key: 'target', title: t('log.target'), dataIndex: 'target', responsive: ['md'] },
    { key: 'ip', title: t('log.ip'), dataIndex: 'ip', responsive: ['lg'] },
  ];
  const range = (value: [Dayjs | null, Dayjs | null] | null) =>
    setFilters((f) => ({ ...f, startTime: value?.[0]?.toISOString() ?? undefined, endTime: value?.[1]?.toISOString() ?? undefined }));
  return (
    <div data-testid="operation-log">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input allowClear placeholder={t('log.user')} onChange={(e) => setFilters((f) => ({ ...f, userName: e.target.value || undefined }))} style={{ width: 160 }} />
        <Input allowClear placeholder={t('log.keyword')} onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))} style={{ width: 200 }} />
        <DatePicker.RangePicker showTime onChange={(value) => range(value as [Dayjs | null, Dayjs | null] | null)} />
      </Space>
      <Table<OperationLogEntry>
        rowKey="id"
        columns={columns}
        dataSource={data}
        loading={loading}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (row) => (
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: 12 }}>
              <Changes title={t('log.before')} rows={row.before} />
              <Changes title={t('log.after')} rows={row.after} />
            </div>
          ),
        }}
      />
    </div>
  );
}
