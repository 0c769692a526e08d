import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Row,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { ApiError } from '@/api/errors';
import { deleteFence, fencePageKey, insertFence, updateFence, type Fence, type FenceInput } from '@/api/waybill';
import { DataList } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { PlaceSearch } from '@/components/map/PlaceSearch';
import type { LatLng } from '@/components/map/projection';
import { inRange, rangeMessage } from '@/components/ui/rangeRules';
import { FenceMap } from './FenceMap';

const FENCE = 'waybill.geofence';
const home: LatLng = { lat: 31.2304, lng: 121.4737 }; // where the map looks first (Shanghai)
const MAX_POINTS = 10;
// The bounds of the typed numbers. The inputs get no min/max (antd would clamp silently, issue 47):
// a value out of range turns its input red and is refused, naming the range, on add or save.
const RADIUS: Bounds = [1, 100000];
const LAT: Bounds = [-90, 90];
const LNG: Bounds = [-180, 180];
type Bounds = [min: number, max: number];
const status = (value: unknown, [min, max]: Bounds) => (inRange(value, min, max) ? undefined : 'error');
const EMPTY: FenceInput = {
  name: '',
  shape: 'circle',
  center: null,
  radius: 500,
  points: [],
  alarmEnter: false,
  alarmLeave: false,
};

/** /waybill/geofence: electric fences (circle or polygon of at most ten points) drawn by clicking the map. */
export function GeofenceView() {
  const { t } = useTranslation('waybill');
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<(FenceInput & { id?: number }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [focus, setFocus] = useState<LatLng | null>(null);
  const [typed, setTyped] = useState<{ lat: number | null; lng: number | null }>({ lat: null, lng: null });
  const { data, loading, pagination, mutate } = usePagedQuery<Fence, { name?: string }>(fencePageKey, {
    name: name || undefined,
  });
  const reload = () => void mutate();

  const pick = ([lat, lng]: [number, number]) => {
    if (!draft) return;
    setProblem(null);
    if (draft.shape === 'circle') setDraft({ ...draft, center: [lat, lng] });
    else if ((draft.points ?? []).length >= MAX_POINTS) setProblem(t('fence.maxPoints'));
    else setDraft({ ...draft, points: [...(draft.points ?? []), [lat, lng]] });
  };

  /** A point typed in (lat / lng): the circle's centre, or the polygon's next point. */
  const addTyped = () => {
    if (typed.lat === null || typed.lng === null) {
      setProblem(t('fence.coordinatesRequired'));
      return;
    }
    if (refused([typed.lat, LAT], [typed.lng, LNG])) return;
    pick([typed.lat, typed.lng]);
    setFocus({ lat: typed.lat, lng: typed.lng });
    setTyped({ lat: null, lng: null });
  };

  /** Names the range of the first value out of its bounds as the problem; true if there is one. */
  const refused = (...values: [unknown, Bounds][]) => {
    const out = values.find(([value, [min, max]]) => !inRange(value, min, max));
    if (out) setProblem(rangeMessage(t, ...out[1]));
    return Boolean(out);
  };

  const save = async () => {
    if (!draft) return;
    if (draft.shape === 'circle' && refused([draft.radius, RADIUS], [draft.center?.[0], LAT], [draft.center?.[1], LNG]))
      return;
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
      if (error instanceof ApiError)
        setProblem(Object.values(error.failure.fieldErrors ?? {}).flat()[0] ?? error.failure.serverMessage ?? null);
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
          filters={
            <Input
              allowClear
              placeholder={t('fence.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              style={{ width: 200 }}
            />
          }
          actions={
            <Permitted route={FENCE} action="add">
              <Button
                type="primary"
                onClick={() => {
                  setDraft({ ...EMPTY });
                  setFocus(null);
                }}
                data-testid="fence-add"
              >
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
              render: (_, f) =>
                f.shape === 'circle'
                  ? `${t('fence.circle')} ${f.radius} m`
                  : `${t('fence.polygon')} (${f.points?.length})`,
            },
            {
              key: 'actions',
              title: t('list.actions'),
              render: (_, f) => (
                <Space size={0}>
                  <Permitted route={FENCE} action="edit">
                    <Button
                      type="link"
                      size="small"
                      onClick={() => {
                        setDraft({ ...f });
                        setFocus(null);
                      }}
                    >
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
                <Input
                  maxLength={20}
                  value={draft.name}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                  data-testid="fence-name"
                />
              </Form.Item>
              <Space wrap>
                <Radio.Group
                  value={draft.shape}
                  onChange={(e) =>
                    setDraft({ ...draft, shape: e.target.value as FenceInput['shape'], center: null, points: [] })
                  }
                  options={[
                    { value: 'circle', label: t('fence.circle') },
                    { value: 'polygon', label: t('fence.polygon') },
                  ]}
                />
                {draft.shape === 'circle' ? (
                  <InputNumber
                    status={status(draft.radius, RADIUS)}
                    value={draft.radius ?? undefined}
                    onChange={(value) => setDraft({ ...draft, radius: value ?? null })}
                    suffix="m"
                    data-testid="fence-radius"
                  />
                ) : (
                  <Typography.Text>
                    {t('fence.points')}: {(draft.points ?? []).length} / {MAX_POINTS}
                  </Typography.Text>
                )}
                <Button size="small" onClick={() => setDraft({ ...draft, center: null, points: [] })}>
                  {t('fence.clear')}
                </Button>
              </Space>
              <Space wrap style={{ marginTop: 8 }} data-testid="fence-coordinates">
                {draft.shape === 'circle' ? (
                  <>
                    <InputNumber
                      status={status(draft.center?.[0], LAT)}
                      precision={6}
                      placeholder={t('fence.lat')}
                      prefix={t('fence.lat')}
                      value={draft.center?.[0] ?? null}
                      onChange={(lat) =>
                        setDraft({ ...draft, center: lat === null ? null : [lat, draft.center?.[1] ?? home.lng] })
                      }
                      data-testid="fence-lat"
                    />
                    <InputNumber
                      status={status(draft.center?.[1], LNG)}
                      precision={6}
                      placeholder={t('fence.lng')}
                      prefix={t('fence.lng')}
                      value={draft.center?.[1] ?? null}
                      onChange={(lng) =>
                        setDraft({ ...draft, center: lng === null ? null : [draft.center?.[0] ?? home.lat, lng] })
                      }
                      data-testid="fence-lng"
                    />
                  </>
                ) : (
                  <>
                    <InputNumber
                      status={status(typed.lat, LAT)}
                      precision={6}
                      prefix={t('fence.lat')}
                      value={typed.lat}
                      onChange={(lat) => setTyped({ ...typed, lat })}
                      data-testid="fence-point-lat"
                    />
                    <InputNumber
                      status={status(typed.lng, LNG)}
                      precision={6}
                      prefix={t('fence.lng')}
                      value={typed.lng}
                      onChange={(lng) => setTyped({ ...typed, lng })}
                      data-testid="fence-point-lng"
                    />
                    <Button size="small" onClick={addTyped} data-testid="fence-point-add">
                      {t('fence.addPoint')}
                    </Button>
                  </>
                )}
                <PlaceSearch
                  placeholder={t('fence.search')}
                  testId="fence-search"
                  onFound={(place) => {
                    setFocus(place);
                    if (draft.shape === 'circle' && !draft.center)
                      setDraft({ ...draft, center: [place.lat, place.lng] });
                  }}
                />
              </Space>
              {draft.shape === 'polygon' && (draft.points ?? []).length ? (
                <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }} data-testid="fence-point-list">
                  {(draft.points ?? []).map(([lat, lng]) => `${lat.toFixed(5)}, ${lng.toFixed(5)}`).join(' · ')}
                </Typography.Paragraph>
              ) : null}
              <Space style={{ margin: '8px 0' }} wrap>
                <Switch checked={draft.alarmEnter} onChange={(v) => setDraft({ ...draft, alarmEnter: v })} />{' '}
                {t('fence.alarmEnter')}
                <Switch checked={draft.alarmLeave} onChange={(v) => setDraft({ ...draft, alarmLeave: v })} />{' '}
                {t('fence.alarmLeave')}
              </Space>
              <Typography.Paragraph type="secondary">{t('fence.drawHint')}</Typography.Paragraph>
              {problem ? (
                <Alert
                  type="error"
                  showIcon
                  message={problem}
                  style={{ marginBottom: 8 }}
                  data-testid="fence-problem"
                />
              ) : null}
              <FenceMap
                fences={[draft, ...data.filter((f) => f.id !== draft.id)]}
                onPick={pick}
                focus={focus}
                home={home}
              />
              <Space style={{ marginTop: 8 }}>
                <Button type="primary" onClick={() => void save()} data-testid="fence-save">
                  {t('action.save')}
                </Button>
                <Button
                  onClick={() => {
                    setDraft(null);
                    setFocus(null);
                  }}
                >
                  ×
                </Button>
              </Space>
            </Form>
          ) : (
            <FenceMap fences={data} focus={focus} home={home} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
