import { Button, Card, Empty, Select, Skeleton, Space, Tabs, Tree, Typography } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import type { Device } from '@/api/device';
import {
  bindDevices,
  deleteOrganization,
  insertOrganization,
  organizationDevicesKey,
  transferCreator,
  unbindDevices,
  updateOrganization,
  type OrganizationNode,
} from '@/api/organization';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { treeOptions, useOrganizations } from './common';
import { useDeviceOptions } from '@/hooks/resources';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { MembersPanel } from './MembersPanel';
import { DataList, type ListColumn } from '@/components/ui/DataList';

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(240px, 320px) minmax(0, 1fr);
  gap: 16px;
  min-width: 0;

  > * {
    min-width: 0;
  }

  @media (max-width: 900px) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

function find(nodes: OrganizationNode[], id: number | null): OrganizationNode | null {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = find(node.children, id);
    if (found) return found;
  }
  return null;
}

type Dialog =
  | { kind: 'add'; parentId: number | null }
  | { kind: 'edit'; node: OrganizationNode }
  | { kind: 'creator'; node: OrganizationNode }
  | null;

function OrganizationDevices({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation('organization');
  const options = useDeviceOptions().filter((option) => !option.shared);
  const [chosen, setChosen] = useState<number[]>([]);
  const { data, loading, pagination, mutate } = usePagedQuery<Device, { organizationId: number }>(
    organizationDevicesKey,
    { organizationId },
  );
  const columns: ListColumn<Device>[] = [
    {
      key: 'name',
      title: t('device.name'),
      render: (_, d) => <Link href={`/device/detail/${d.id}`}>{d.deviceName}</Link>,
    },
    { key: 'guid', title: t('device.guid'), dataIndex: 'deviceGuid' },
    { key: 'type', title: t('device.type'), dataIndex: 'typeName', responsive: ['md'] },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, d) => (
        <ConfirmAction
          route="organization.list"
          action="edit"
          title={t('org.unbindConfirm')}
          onConfirm={() => unbindDevices(organizationId, [d.id]).then(() => mutate())}
        >
          {t('org.unbind')}
        </ConfirmAction>
      ),
    },
  ];
  return (
    <>
      <Permitted route="organization.list" action="edit">
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('org.chooseDevices')}
            options={options}
            value={chosen}
            onChange={setChosen}
            style={{ minWidth: 260 }}
          />
          <Button
            disabled={!chosen.length}
            onClick={() =>
              void bindDevices(organizationId, chosen)
                .then(() => {
                  setChosen([]);
                  void mutate();
                })
                .catch(() => undefined)
            }
          >
            {t('org.bind')}
          </Button>
        </Space>
      </Permitted>
      <DataList<Device> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
    </>
  );
}

/** /organization/list: the organisation tree, its members and its devices. */
export function OrganizationListView() {
  const { t } = useTranslation('organization');
  const { data: tree, mutate } = useOrganizations();
  const [selected, setSelected] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const nodes = tree ?? [];
  const current = find(nodes, selected) ?? nodes[0] ?? null;
  const reload = () => void mutate();
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'name',
      label: t('org.name'),
      maxLength: 50,
      rules: [{ required: true, min: 2, max: 50, message: t('length', { min: 2, max: 50 }) }],
    },
    { type: 'treeSelect', name: 'parentId', label: t('org.parent'), treeData: treeOptions(nodes) },
  ];
  const editing = dialog?.kind === 'edit' ? dialog.node : null;
  const addParent = dialog?.kind === 'add' ? dialog.parentId : null;
  const addInitial = useMemo(() => ({ parentId: addParent }), [addParent]);
  const editInitial = useMemo(() => (editing ? { name: editing.name, parentId: editing.parentId } : {}), [editing]);
  return (
    <Layout data-testid="organization-list">
      <Card
        size="small"
        title={t('org.title')}
        extra={
          <Permitted route="organization.list" action="add">
            <Button
              type="primary"
              size="small"
              onClick={() => setDialog({ kind: 'add', parentId: current?.id ?? null })}
              data-testid="org-add"
            >
              {t('org.add')}
            </Button>
          </Permitted>
        }
      >
        {/* While the tree loads, a skeleton: not "no organisations" for a moment. */}
        {tree === undefined ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : nodes.length ? (
          <Tree
            defaultExpandAll
            showLine
            selectedKeys={current ? [current.id] : []}
            onSelect={(keys) => setSelected(keys.length ? Number(keys[0]) : null)}
            treeData={treeOptions(nodes) as never}
          />
        ) : (
          <Empty description={t('org.empty')} />
        )}
      </Card>
      <Card
        size="small"
        title={
          current ? (
            <Typography.Text strong data-testid="org-current">
              {current.name}
            </Typography.Text>
          ) : (
            t('org.none')
          )
        }
        extra={
          current ? (
            <Space size={0} wrap>
              <Permitted route="organization.list" action="edit">
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', node: current })}>
                  {t('edit')}
                </Button>
              </Permitted>
              <Permitted route="organization.list" action="edit">
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'creator', node: current })}>
                  {t('org.transferCreator')}
                </Button>
              </Permitted>
              <ConfirmAction
                route="organization.list"
                action="delete"
                title={t('org.deleteConfirm')}
                onConfirm={() =>
                  deleteOrganization(current.id).then(() => {
                    setSelected(null);
                    reload();
                  })
                }
              >
                {t('delete')}
              </ConfirmAction>
            </Space>
          ) : null
        }
      >
        {current ? (
          <>
            <Typography.Paragraph type="secondary">
              {t('org.summary', {
                creator: current.creatorName ?? '-',
                members: current.memberCount,
                devices: current.deviceCount,
              })}
            </Typography.Paragraph>
            <Tabs
              items={[
                {
                  key: 'members',
                  label: t('org.members'),
                  children: <MembersPanel key={current.id} organizationId={current.id} />,
                },
                {
                  key: 'devices',
                  label: t('org.devices'),
                  children: <OrganizationDevices key={current.id} organizationId={current.id} />,
                },
              ]}
            />
          </>
        ) : tree === undefined ? (
          <Skeleton active />
        ) : (
          <Empty />
        )}
      </Card>
      <DrawerForm<{ name: string; parentId?: number | null }>
        key={dialog?.kind === 'add' ? `add-${dialog.parentId}` : 'add'}
        open={dialog?.kind === 'add'}
        title={t('org.add')}
        fields={fields}
        initialValues={addInitial}
        onClose={() => setDialog(null)}
        onSubmit={async (v) => {
          const created = await insertOrganization({ name: v.name, parentId: v.parentId ?? null });
          setSelected(created.id);
          reload();
        }}
      />
      <DrawerForm<{ name: string; parentId?: number | null }>
        key={editing ? `edit-${editing.id}` : 'edit'}
        open={Boolean(editing)}
        title={t('org.edit')}
        fields={fields}
        initialValues={editInitial}
        onClose={() => setDialog(null)}
        onSubmit={async (v) => {
          if (editing) await updateOrganization({ id: editing.id, name: v.name, parentId: v.parentId ?? null });
          reload();
        }}
      />
      <DrawerForm<{ accountId: number }>
        open={dialog?.kind === 'creator'}
        title={t('org.transferCreator')}
        fields={[
          {
            type: 'number',
            name: 'accountId',
            label: t('org.newCreatorId'),
            extra: t('org.newCreatorHint'),
            rules: [{ required: true, message: t('required') }],
          },
        ]}
        onClose={() => setDialog(null)}
        onSubmit={async (v) => {
          if (dialog?.kind === 'creator') await transferCreator(dialog.node.id, v.accountId);
          reload();
        }}
      />
    </Layout>
  );
}

/** /home/organization: each organisation with its creator, members and devices. */
export function OrganizationHomeView() {
  const { t } = useTranslation('organization');
  const { data: tree } = useOrganizations();
  const flat: OrganizationNode[] = [];
  const walk = (nodes: OrganizationNode[]) =>
    nodes.forEach((node) => {
      flat.push(node);
      walk(node.children);
    });
  walk(tree ?? []);
  if (tree && !flat.length) return <Empty description={t('org.empty')} />;
  return (
    <div
      data-testid="organization-home"
      style={{ display: 'grid', gap: 12, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}
    >
      {flat.map((node) => (
        <Card
          key={node.id}
          size="small"
          title={node.name}
          extra={<Link href="/organization/list">{t('org.manage')}</Link>}
        >
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('org.summary', {
              creator: node.creatorName ?? '-',
              members: node.memberCount,
              devices: node.deviceCount,
            })}
          </Typography.Paragraph>
        </Card>
      ))}
    </div>
  );
}
