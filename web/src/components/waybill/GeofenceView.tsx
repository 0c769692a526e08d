import { Alert, Button, Card, Col, Form, Input, InputNumber, Popconfirm, Radio, Row, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { ApiError } from '@/api/errors';
import { deleteFence, fencePageKey, insertFence, updateFence, type Fence, type FenceInput } from '@/api/waybill';
import { DataList } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { FenceCanvas } from './FenceCanvas';

const FENCE = 'waybill.geofence';
const MAX_POINTS = 10;
const EMPTY: FenceInput = { name: '', shape: 'circle', center: null, radius: 500, points: [], alarmEnter: false, alarmLeave: false };

/** /waybill/geofence: electric fences (circle or polygon of at most ten points) drawn by clicking the map. */
export function GeofenceView() {
  const { t } = useTranslation('waybill');
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<(FenceInput & { id?: number }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<Fence, { name?: string }>(fencePageKey, { name: name || undefined });
  const reload = () => void mutate();

  const pick = ([lat, lng]: [number, number]) => {
    if (!draft) return;
    setProblem(null);
    if (draft.shape === 'circle') setDraft({ ...draft, center: [lat, lng] });
    else if ((draft.points ?? []).length >= MAX_POINTS) setProblem(t('fence.maxPoints'));
    else setDraft({ ...draft, points: [...(draft.points ?? []), [lat, lng]] });
  };

  const save = async () => {
    if (!draft) return;
    const drawn = draft.shape === 'circle' ? Boolean(draft.center) : (draft.points ?? []).length >= 3;
    if (!drawn) {
      setProblem(t('fence.clickMap'));
      return;
    }
    try {
      await (draft.id ? updateFence({ ...draft, id: draft.id }) : insertFence(draft));
      setDraft(null);
      reload();
    } catch (error) {
      if (error instanceof ApiError) setProblem(Object.values(error.failure.fieldErrors ?? {}).flat()[0] ?? error.failure.serverMessage ?? null);
    }
  };

  return (
    <Row gutter={[16, 16]} data-testid="geofence">
      <Col xs={24} xl={10}>
        <DataList<Fence>
          rowKey="id"
          size="small"
          testId="fence-table"
          data={data}
          loading={loading}
          pagination={pagination}
          filters={<Input allowClear placeholder={t('fence.name')} value={name} onChange={(e) => setName(e.target.value)} style={{ width: 200 }} />}
          actions={
            <Permitted route={FENCE} action="add">
              <Button type="primary" onClick={() => setDraft({ ...EMPTY })} data-testid="fence-add">
                {t('fence.add')}
              </Button>
            </Permitted>
          }
          columns={[
            { key: 'name', title: t('fence.name'), dataIndex: 'name', card: 'title' },
            {
              key: 'shape',
              title: t('fence.shape'),
              important: true,
              render: (_, f) => (f.shape === 'circle' ? `${t('fence.circle')} ${f.radius} m` : `${t('fence.polygon')} (${f.points?.length})`),
            },
            {
              key: 'actions',
              title: t('list.actions'),
              render: (_, f) => (
                <Space size={0}>
                  <Permitted route={FENCE} action="edit">
                    <Button type="link" size="small" onClick={() => setDraft({ ...f })}>
                      {t('action.edit')}
                    </Button>
                  </Permitted>
                  <Permitted route={FENCE} action="delete">
                    <Popconfirm title={t('fence.deleteConfirm')} onConfirm={() => deleteFence(f.id).then(reload)}>
                      <Button type="link" size="small" danger>
                        {t('action.delete')}
                      </Button>
                    </Popconfirm>
                  </Permitted>
                </Space>
              ),
            },
          ]}
        />
      </Col>
      <Col xs={24} xl={14}>
        <Card size="small">
          {draft ? (
            <Form layout="vertical" data-testid="fence-form">
              <Form.Item label={t('fence.name')} required>
                <Input maxLength={20} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} data-testid="fence-name" />
              </Form.Item>
              <Space wrap>
                <Radio.Group
                  value={draft.shape}
                  onChange={(e) => setDraft({ ...draft, shape: e.target.value as FenceInput['shape'], center: null, points: [] })}
                  options={[
                    { value: 'circle', label: t('fence.circle') },
                    { value: 'polygon', label: t('fence.polygon') },
                  ]}
                />
                {draft.shape === 'circle' ? (
                  <InputNumber min={1} max={100000} value={draft.radius ?? undefined} onChange={(value) => setDraft({ ...draft, radius: value ?? null })} suffix="m" data-testid="fence-radius" />
                ) : (
                  <Typography.Text>
                    {t('fence.points')}: {(draft.points ?? []).length} / {MAX_POINTS}
                  </Typography.Text>
                )}
                <Button size="small" onClick={() => setDraft({ ...draft, center: null, points: [] })}>
                  {t('fence.clear')}
                </Button>
              </Space>
              <Space style={{ margin: '8px 0' }} wrap>
                <Switch checked={draft.alarmEnter} onChange={(v) => setDraft({ ...draft, alarmEnter: v })} /> {t('fence.alarmEnter')}
                <Switch checked={draft.alarmLeave} onChange={(v) => setDraft({ ...draft, alarmLeave: v })} /> {t('fence.alarmLeave')}
              </Space>
              <Typography.Paragraph type="secondary">{t('fence.drawHint')}</Typography.Paragraph>
              {problem ? <Alert type="error" showIcon message={problem} style={{ marginBottom: 8 }} data-testid="fence-problem" /> : null}
              <FenceCanvas fences={[draft, ...data.filter((f) => f.id !== draft.id)]} onPick={pick} />
              <Space style={{ marginTop: 8 }}>
                <Button type="primary" onClick={() => void save()} data-testid="fence-save">
                  {t('action.save')}
                </Button>
                <Button onClick={() => setDraft(null)}>×</Button>
              </Space>
            </Form>
          ) : (
            <FenceCanvas fences={data} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
