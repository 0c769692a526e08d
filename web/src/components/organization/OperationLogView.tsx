import { App, Button, DatePicker, Input, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  exportOperationLog,
  exportOperationLogPdf,
  operationLogPageKey,
  type OperationLogEntry,
  type RowChange,
} from '@/api/organization';
import { saveBlob } from '@/api/report';
import { formatTime } from '@/lib/format';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { DataList, type ListColumn } from '@/components/ui/DataList';

interface LogFilters {
  userName?: string;
  keyword?: string;
  startTime?: string;
  endTime?: string;
}

/** "device#12" in the reader's language ("设备 #12"): the trail names tables, the page names things. */
function useObjectName() {
  const { t, i18n } = useTranslation('organization');
  return (table: string, id: string) => {
    const name = i18n.exists(`organization:log.tables.${table}`) ? t(`log.tables.${table}`) : t('log.tables.record');
    return id ? `${name} #${id}` : name;
  };
}

function targetText(target: string | null, objectName: (table: string, id: string) => string): string {
  if (!target) return '-';
  return target
    .split(', ')
    .map((part) => {
      const [table, id = ''] = part.split('#');
      return objectName(table, id);
    })
    .join(', ');
}

function Changes({ title, rows }: { title: string; rows: RowChange[] }) {
  const { t } = useTranslation('organization');
  const objectName = useObjectName();
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text strong>{title}</Typography.Text>
      {rows.length ? (
        rows.map((row) => (
          <pre
            key={`${row.table}-${row.id}`}
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: '4px 0' }}
          >
            {`${objectName(row.table, row.id)} ${JSON.stringify(row.values, null, 1)}`}
            {row.redacted?.length ? `\n${t('log.secrets')}: ${row.redacted.join('; ')}` : ''}
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
  const { t, i18n } = useTranslation('organization');
  const { message } = App.useApp();
  const { t: tMenu } = useTranslation('menu');
  // The call's declared key in the reader's language (route and action, as the role editor names
  // them), else its area and method; the developer's English summary only where neither is named.
  const operationName = (row: OperationLogEntry) => {
    const key = row.permissionKey ?? '';
    const cut = key.lastIndexOf('.');
    const [route, action] = cut > 0 ? [key.slice(0, cut), key.slice(cut + 1)] : [key, ''];
    if (route && action && i18n.exists(`menu:${route}`) && i18n.exists(`organization:action.${action}`))
      return `${tMenu(route)} · ${t(`action.${action}`)}`;
    if (key && i18n.exists(`menu:${key}`)) return tMenu(key);
    // A call any signed-in account may make (no key): its area and what it did.
    const area = row.action.split('.')[0];
    if (i18n.exists(`organization:log.areas.${area}`) && i18n.exists(`organization:log.methods.${row.method}`))
      return `${t(`log.areas.${area}`)} · ${t(`log.methods.${row.method}`)}`;
    return row.summary || row.action;
  };
  const objectName = useObjectName();
  const [filters, setFilters] = useState<LogFilters>({});
  const { data, loading, pagination } = usePagedQuery<OperationLogEntry, LogFilters>(operationLogPageKey, filters);
  const columns: ListColumn<OperationLogEntry>[] = [
    { key: 'time', title: t('log.time'), important: true, render: (_, row) => formatTime(row.gmtCreate) },
    // The account id beside the name: a user name may be the only one, the id never passes to anyone else.
    {
      key: 'user',
      title: t('log.user'),
      render: (_, row) => (row.accountId === null ? row.userName : `${row.userName} (#${row.accountId})`),
    },
    { key: 'what', title: t('log.what'), long: 260, card: 'title', render: (_, row) => operationName(row) },
    {
      key: 'target',
      title: t('log.target'),
      long: 200,
      responsive: ['md'],
      render: (_, row) => targetText(row.target, objectName),
    },
    { key: 'ip', title: t('log.ip'), dataIndex: 'ip', responsive: ['lg'] },
  ];
  const [exporting, setExporting] = useState<'csv' | 'pdf' | null>(null);
  const exportAs = async (format: 'csv' | 'pdf') => {
    setExporting(format);
    try {
      if (format === 'csv') {
        saveBlob(await exportOperationLog(filters), 'audit-trail.csv');
      } else {
        // A job lays the PDF out: it appears in the download centre when ready.
        await exportOperationLogPdf(filters);
        message.success(
          <span data-testid="log-pdf-queued">
            {t('log.pdfQueued')} <Link href="/consumer/download">{t('log.openCenter')}</Link>
          </span>,
        );
      }
    } catch {
      // The request client has shown why (a PDF of too many entries says what to narrow).
    } finally {
      setExporting(null);
    }
  };
  const range = (value: [Dayjs | null, Dayjs | null] | null) =>
    setFilters((f) => ({
      ...f,
      startTime: value?.[0]?.toISOString() ?? undefined,
      endTime: value?.[1]?.toISOString() ?? undefined,
    }));
  return (
    <div data-testid="operation-log">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          allowClear
          placeholder={t('log.user')}
          onChange={(e) => setFilters((f) => ({ ...f, userName: e.target.value || undefined }))}
          style={{ width: 160 }}
        />
        <Input
          allowClear
          placeholder={t('log.keyword')}
          onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
          style={{ width: 200 }}
        />
        <DatePicker.RangePicker showTime onChange={(value) => range(value as [Dayjs | null, Dayjs | null] | null)} />
        <Button
          loading={exporting === 'csv'}
          disabled={exporting !== null}
          onClick={() => void exportAs('csv')}
          data-testid="log-export"
        >
          {t('log.export')}
        </Button>
        <Button
          loading={exporting === 'pdf'}
          disabled={exporting !== null}
          onClick={() => void exportAs('pdf')}
          data-testid="log-export-pdf"
        >
          {t('log.exportPdf')}
        </Button>
      </Space>
      <DataList<OperationLogEntry>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        expandable={{
          expandedRowRender: (row) => (
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: 12 }}>
              <Changes title={t('log.before')} rows={row.before} />
              <Changes title={t('log.after')} rows={row.after} />
              {row.reason ? (
                <div>
                  <Typography.Text strong>{t('log.reason')}</Typography.Text>
                  <div>{row.reason}</div>
                </div>
              ) : null}
            </div>
          ),
        }}
      />
    </div>
  );
}
