import { Button, Input, Space } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { deleteProject, projectPageKey, saveProject, type Project } from '@/api/organization';
import { formatTime } from '@/lib/format';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useDeviceOptions } from '@/hooks/resources';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';

/** /project/list: projects (name 2-20) and their devices. */
export function ProjectListView() {
  const { t } = useTranslation('organization');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ project: Project | null } | null>(null);
  const devices = useDeviceOptions();
  const names = new Map(devices.map((d) => [d.value, d.label]));
  const { data, loading, pagination, mutate } = usePagedQuery<Project, { projectName?: string }>(projectPageKey, {
    projectName: name || undefined,
  });
  const columns: ListColumn<Project>[] = [
    { key: 'name', title: t('project.name'), dataIndex: 'projectName' },
    {
      key: 'devices',
      title: t('project.devices'),
      render: (_, p) => p.deviceIds.map((id) => names.get(id) ?? `#${id}`).join(', ') || '-',
    },
    { key: 'created', title: t('created'), render: (_, p) => formatTime(p.gmtCreate), responsive: ['md'] },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, p) => (
        <Space size={0}>
          <Permitted route="project.list" action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ project: p })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route="project.list"
            action="delete"
            title={t('project.deleteConfirm')}
            onConfirm={() => deleteProject(p.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'projectName',
      label: t('project.name'),
      maxLength: 20,
      rules: [{ required: true, min: 2, max: 20, message: t('length', { min: 2, max: 20 }) }],
    },
    { type: 'select', name: 'deviceIds', label: t('project.devices'), options: devices, multiple: true },
  ];
  const project = editing?.project ?? null;
  const initial = useMemo(
    () => ({ projectName: project?.projectName ?? '', deviceIds: project?.deviceIds ?? [] }),
    [project],
  );
  return (
    <div data-testid="project-list">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input
          allowClear
          placeholder={t('project.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
        />
        <Permitted route="project.list" action="add">
          <Button type="primary" onClick={() => setEditing({ project: null })} data-testid="project-add">
            {t('project.add')}
          </Button>
        </Permitted>
      </Space>
      <DataList<Project> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
      <DrawerForm<{ projectName: string; deviceIds: number[] }>
        key={project?.id ?? 'new'}
        open={Boolean(editing)}
        title={project ? t('project.edit') : t('project.add')}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          await saveProject({ id: project?.id, projectName: v.projectName, deviceIds: v.deviceIds ?? [] });
          void mutate();
        }}
      />
    </div>
  );
}
