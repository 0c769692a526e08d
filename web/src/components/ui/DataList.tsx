/**
 * The one list of the console (design 7): a toolbar (filters left, actions right) over a paged table
 * on desktop and tablet, cards below the tablet breakpoint (spec 2.3: under 576 px).
 *
 * Table: the key columns (marked `key`: time, state, latest values, actions) never clip: the action
 * column is fixed on the right, long text (`long`) is one line with an ellipsis and the full text in
 * a tooltip, other cells wrap to fit the container, and the table scrolls sideways inside its container
 * (never widening the page) only when its columns cannot fit even wrapped.
 * Cards: a title (the column marked `card: 'title'`, else the first), the other columns as label /
 * value lines (a column with `card: false` is left out) and the actions at the bottom; a row's
 * expanded content (`expandable`) opens under its card's lines with the card's toggle.
 */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Empty, Pagination, Space, Table, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table';
import { useTranslation } from 'next-i18next/pages';
import { useState, type ReactNode } from 'react';

type Key = string | number;
import styled from 'styled-components';
import { useViewport } from '@/hooks/useViewport';

export interface ListColumn<T> extends Omit<ColumnType<T>, 'key' | 'render'> {
  key: string;
  title: ReactNode;
  render?: (value: unknown, row: T, index: number) => ReactNode;
  /** A key column: never clipped (checked by the width test through its `list-key` class). */
  important?: boolean;
  /** Long text: one line, ellipsis, full text in a tooltip; the column's width (default 220 px). */
  long?: boolean | number;
  /** On the card: 'title', shown (default) or left out. */
  card?: 'title' | boolean;
  /** Shown on desktop only: on a tablet the key columns need the room. */
  desktopOnly?: boolean;
}

export interface DataListProps<T> {
  rowKey: (keyof T & string) | ((row: T) => Key);
  columns: ListColumn<T>[];
  data: readonly T[];
  loading?: boolean;
  pagination?: TablePaginationConfig | false;
  /** Toolbar, left: filters. */
  filters?: ReactNode;
  /** Toolbar, right: buttons. */
  actions?: ReactNode;
  /** Above the list, below the toolbar (a batch bar, tabs ...). */
  extra?: ReactNode;
  rowSelection?: TableProps<T>['rowSelection'];
  expandable?: TableProps<T>['expandable'];
  rowClassName?: (row: T) => string;
  /** Extra attributes of a row (and of its card), e.g. data-* for tests. */
  rowProps?: (row: T) => Record<string, string | number>;
  emptyText?: ReactNode;
  testId?: string;
  /** Table size. */
  size?: 'small' | 'middle' | 'large';
  /** Force the cards (or the table) whatever the width. */
  mode?: 'auto' | 'cards' | 'table';
}

export const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  justify-content: space-between;
  margin-bottom: 16px;

  > * {
    max-width: 100%;
  }
`;

const Cards = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: minmax(0, 1fr);
`;

const Line = styled.div`
  display: flex;
  gap: 8px;
  min-width: 0;
  line-height: 22px;

  > :first-child {
    flex: none;
    color: ${({ theme }) => theme.colors.textSecondary};
  }
  > :last-child {
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

function textOf(node: ReactNode): string | null {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  return null;
}

function cellOf<T>(column: ListColumn<T>, row: T, index: number): ReactNode {
  if (column.render)
    return column.render(
      column.dataIndex ? (row as Record<string, unknown>)[column.dataIndex as string] : undefined,
      row,
      index,
    );
  if (column.dataIndex) {
    const value = (row as Record<string, unknown>)[column.dataIndex as string];
    return value === null || value === undefined || value === '' ? '-' : (value as ReactNode);
  }
  return null;
}

/** A long cell: one line with an ellipsis; the whole text in a tooltip. */
export function Ellipsis({ children, width }: { children: ReactNode; width?: number }) {
  const text = textOf(children);
  return (
    <Tooltip title={children} placement="topLeft">
      <Typography.Text ellipsis style={{ maxWidth: width, display: 'block' }} title={text ?? undefined}>
        {children}
      </Typography.Text>
    </Tooltip>
  );
}

/** On a tablet, long text columns (other than the title) and desktop-only ones make room for the key columns. */
function tableColumns<T>(columns: ListColumn<T>[], tablet: boolean): ColumnType<T>[] {
  const shown = tablet
    ? columns.filter((column) => !column.desktopOnly && !(column.long && column.card !== 'title'))
    : columns;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- `card` and `desktopOnly` are used above
  return shown.map(({ important, long, card, desktopOnly, render, className, ...column }) => {
    const full = long ? (typeof long === 'number' ? long : 220) : column.width;
    const width = tablet && long && typeof full === 'number' ? Math.min(full, 180) : full;
    const isActions = column.key === 'actions';
    const classes = [className, important || isActions ? 'list-key' : null].filter(Boolean).join(' ') || undefined;
    return {
      ...column,
      className: classes,
      width,
      fixed: column.fixed ?? (isActions ? 'right' : undefined),
      ellipsis: long ? { showTitle: false } : column.ellipsis,
      render: (_value: unknown, row: T, index: number) => {
        const cell = cellOf({ ...column, render } as ListColumn<T>, row, index);
        return long ? <Ellipsis width={typeof width === 'number' ? width - 16 : undefined}>{cell}</Ellipsis> : cell;
      },
    };
  });
}

function CardList<T>({
  rowKey,
  columns,
  data,
  loading,
  pagination,
  emptyText,
  rowSelection,
  rowProps,
  expandable,
}: DataListProps<T>) {
  const titleColumn = columns.find((column) => column.card === 'title') ?? columns[0];
  const actions = columns.find((column) => column.key === 'actions');
  const lines = columns.filter((column) => column !== titleColumn && column !== actions && column.card !== false);
  const selected = new Set<Key>((rowSelection?.selectedRowKeys as Key[] | undefined) ?? []);
  const keyOf = (row: T): Key =>
    typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, unknown>)[rowKey] as Key);
  const { t } = useTranslation('common');
  const [expanded, setExpanded] = useState<ReadonlySet<Key>>(new Set());
  const expandedContent = expandable?.expandedRowRender;
  const toggle = (key: Key) =>
    setExpanded((open) =>
      open.has(key) ? new Set([...open].filter((other) => other !== key)) : new Set([...open, key]),
    );
  return (
    <>
      <Cards data-testid="list-cards">
        {data.length === 0 && !loading ? <Empty description={emptyText} /> : null}
        {data.map((row, index) => {
          const key = keyOf(row);
          const expandableRow = Boolean(expandedContent) && (expandable?.rowExpandable?.(row) ?? true);
          const open = expandableRow && expanded.has(key);
          return (
            <Card
              key={String(key)}
              size="small"
              loading={loading && data.length === 0}
              data-testid="list-card"
              {...rowProps?.(row)}
              style={selected.has(key) ? { borderColor: 'currentColor' } : undefined}
              extra={
                expandableRow ? (
                  <Button
                    type="text"
                    size="small"
                    icon={open ? <UpOutlined /> : <DownOutlined />}
                    aria-expanded={open}
                    aria-label={t(open ? 'list.collapse' : 'list.expand')}
                    onClick={() => toggle(key)}
                    data-testid="list-card-expand"
                  />
                ) : null
              }
              title={
                <Space size={8}>
                  {rowSelection ? (
                    <Checkbox
                      checked={selected.has(key)}
                      disabled={Boolean(
                        (rowSelection.getCheckboxProps?.(row) as { disabled?: boolean } | undefined)?.disabled,
                      )}
                      onChange={(event) => {
                        const keys = event.target.checked
                          ? [...selected, key]
                          : [...selected].filter((other) => other !== key);
                        const rows = data.filter((item) => keys.includes(keyOf(item)));
                        rowSelection.onChange?.(keys, rows as T[], { type: 'single' });
                      }}
                    />
                  ) : null}
                  <span data-testid="list-card-title">{titleColumn ? cellOf(titleColumn, row, index) : null}</span>
                </Space>
              }
            >
              {lines.map((column) => (
                <Line key={column.key} className={column.important ? 'list-key' : undefined}>
                  <span>{column.title}</span>
                  <span>{cellOf(column, row, index)}</span>
                </Line>
              ))}
              {open && expandedContent ? (
                <div style={{ marginTop: 8 }} data-testid="list-card-expanded">
                  {expandedContent(row, index, 0, true)}
                </div>
              ) : null}
              {actions ? (
                <Space wrap style={{ marginTop: 8 }} className="list-key" data-testid="list-card-actions">
                  {cellOf(actions, row, index)}
                </Space>
              ) : null}
            </Card>
          );
        })}
      </Cards>
      {pagination ? (
        <Pagination
          simple
          style={{ marginTop: 12, justifyContent: 'center', display: 'flex' }}
          {...pagination}
          showSizeChanger={false}
          showTotal={undefined}
        />
      ) : null}
    </>
  );
}

export function DataList<T extends object>(props: DataListProps<T>) {
  const viewport = useViewport();
  const {
    rowKey,
    columns,
    data,
    loading,
    pagination,
    filters,
    actions,
    extra,
    rowSelection,
    expandable,
    rowClassName,
    rowProps,
    emptyText,
    testId,
    size,
    mode = 'auto',
  } = props;
  const cards = mode === 'cards' || (mode === 'auto' && viewport === 'mobile');
  return (
    <div data-testid={testId} data-list-mode={cards ? 'cards' : 'table'} style={{ minWidth: 0, maxWidth: '100%' }}>
      {filters || actions ? (
        <Toolbar>
          <Space wrap>{filters}</Space>
          <Space wrap>{actions}</Space>
        </Toolbar>
      ) : null}
      {extra}
      {cards ? (
        <CardList {...props} />
      ) : (
        <Table<T>
          rowKey={rowKey as TableProps<T>['rowKey']}
          size={size ?? 'middle'}
          columns={tableColumns(columns, viewport === 'tablet')}
          dataSource={data as T[]}
          loading={loading}
          pagination={pagination}
          // Sized to the container: cells wrap before the table scrolls sideways, so no column waits
          // behind the fixed action column while the table could have fitted (scrolls only past min-content).
          scroll={{ x: true }}
          tableLayout="auto"
          rowSelection={rowSelection}
          expandable={expandable}
          rowClassName={rowClassName}
          onRow={rowProps ? (row) => rowProps(row) as React.HTMLAttributes<HTMLElement> : undefined}
          locale={emptyText ? { emptyText: <Empty description={emptyText} /> } : undefined}
        />
      )}
    </div>
  );
}
