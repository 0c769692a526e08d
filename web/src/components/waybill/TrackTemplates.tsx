import { Button, Form, InputNumber, Modal, Select, Space, Switch, Tag, theme as antdTheme } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  deleteTrackTemplate,
  insertTrackTemplate,
  trackTemplatesKey,
  updateTrackTemplate,
  type TrackTemplate,
  type TrackTemplateInput,
  type WaybillStatus,
} from '@/api/waybill';
import { COLOUR_PATTERN, lengthOf } from '@/lib/formRules';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { ColourInput } from '@/components/ui/ColourInput';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useRead } from '@/hooks/useRead';
import type { FenceShape } from './FenceCanvas';
import { StatusTab } from './StatusPanel';
import { initialChoice, lookOf, MIN_STOP_MINUTES, STANDARD } from './trackLook';
import { rangeRules } from '@/components/ui/rangeRules';

const LIST = 'waybill.list';
const NAME = lengthOf('trackTemplateName');

export function useTrackTemplates() {
  const { data, mutate } = useRead<TrackTemplate[]>(trackTemplatesKey());
  return { templates: data, reload: () => void mutate() };
}

/** The status tab of a waybill with a choice of track template (the account's default first). */
export function WaybillTrackStatus({ status, fences }: { status: WaybillStatus; fences: FenceShape[] }) {
  const { t } = useTranslation('waybill');
  const { token } = antdTheme.useToken();
  const { templates, reload } = useTrackTemplates();
  const [chosen, setChosen] = useState<number | typeof STANDARD | null>(null);
  const [managing, setManaging] = useState(false);
  const current = chosen ?? (templates ? initialChoice(templates) : STANDARD);
  const template = templates?.find((item) => item.id === current);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <span>{t('track.template')}</span>
        <Select
          value={template ? template.id : STANDARD}
          onChange={setChosen}
          style={{ minWidth: 160 }}
          data-testid="track-template"
          options={[
            { value: STANDARD, label: t('track.standard') },
            ...(templates ?? []).map((item) => ({ value: item.id, label: item.name })),
          ]}
        />
        <Permitted route={LIST} action="add">
          <Button onClick={() => setManaging(true)} data-testid="track-templates-manage">
            {t('track.manage')}
          </Button>
        </Permitted>
      </Space>
      <StatusTab status={status} fences={fences} look={lookOf(template, token.colorInfo)} />
      <TrackTemplatesModal
        open={managing}
        templates={templates ?? []}
        onClose={() => setManaging(false)}
        onChanged={reload}
      />
    </Space>
  );
}

const EMPTY: TrackTemplateInput = {
  name: '',
  lineColor: '#1677ff',
  lineWidth: 3,
  stopMinutes: 10,
  colorByLimits: true,
  isDefault: false,
};

/** Map track templates (business spec 5: name 10): list, add, edit, delete, one default. */
function TrackTemplatesModal({
  open,
  templates,
  onClose,
  onChanged,
}: {
  open: boolean;
  templates: TrackTemplate[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('waybill');
  const [form] = Form.useForm<TrackTemplateInput>();
  const [editing, setEditing] = useState<{ template: TrackTemplate | null } | null>(null);
  const { submit, submitting } = useFormSubmit(
    form,
    (values: TrackTemplateInput) =>
      editing?.template ? updateTrackTemplate({ ...values, id: editing.template.id }) : insertTrackTemplate(values),
    {
      onDone: () => {
        setEditing(null);
        onChanged();
      },
    },
  );
  const edit = (template: TrackTemplate | null) => {
    setEditing({ template });
    form.setFieldsValue(template ?? EMPTY);
  };
  const columns: ListColumn<TrackTemplate>[] = [
    {
      key: 'name',
      title: t('track.name'),
      card: 'title',
      render: (_, item) => (
        <Space size={4}>
          {item.name}
          {item.isDefault ? <Tag color="blue">{t('track.isDefault')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'line',
      title: t('track.line'),
      important: true,
      render: (_, item) => (
        <span
          data-testid="track-template-line"
          style={{
            display: 'inline-block',
            width: 48,
            height: item.lineWidth,
            background: item.lineColor,
            verticalAlign: 'middle',
          }}
        />
      ),
    },
    {
      key: 'stops',
      title: t('track.stopMinutes'),
      render: (_, item) =>
        item.stopMinutes ? t('track.stopsFrom', { minutes: item.stopMinutes }) : t('track.stopsOff'),
    },
    {
      key: 'limits',
      title: t('track.colorByLimits'),
      render: (_, item) => t(item.colorByLimits ? 'track.yes' : 'track.no'),
    },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, item) => (
        <Space size={0}>
          <Permitted route={LIST} action="edit">
            <Button type="link" size="small" onClick={() => edit(item)}>
              {t('action.edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={LIST}
            action="delete"
            title={t('track.deleteConfirm')}
            onConfirm={() => deleteTrackTemplate(item.id).then(onChanged)}
          >
            {t('action.delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <Modal open={open} title={t('track.title')} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      {editing ? (
        <Form form={form} layout="vertical" onFinish={submit} data-testid="track-template-form">
          <Form.Item
            name="name"
            label={t('track.name')}
            rules={[
              { required: true, whitespace: true, message: t('track.nameRequired') },
              { max: NAME.max, message: t('track.nameMax', { max: NAME.max }) },
            ]}
          >
            <SymbolFreeInput maxLength={NAME.max} data-testid="track-template-name" />
          </Form.Item>
          <Form.Item
            name="lineColor"
            label={t('track.lineColor')}
            rules={[{ required: true, pattern: COLOUR_PATTERN, message: t('track.colour') }]}
          >
            <ColourInput testId="track-template-colour" />
          </Form.Item>
          <Space wrap size="large">
            <Form.Item
              name="lineWidth"
              label={t('track.lineWidth')}
              rules={[{ required: true, message: t('track.nameRequired') }, ...rangeRules(t, 1, 8)]}
            >
              <InputNumber precision={0} suffix="px" />
            </Form.Item>
            <Form.Item
              name="stopMinutes"
              label={t('track.stopMinutes')}
              extra={t('track.stopsHint')}
              rules={[
                { required: true, message: t('track.nameRequired') },
                {
                  validator: (_, value: number) =>
                    value > 0 && value < MIN_STOP_MINUTES
                      ? Promise.reject(new Error(t('track.stopsHint')))
                      : Promise.resolve(),
                },
                ...rangeRules(t, 0, 1440),
              ]}
            >
              <InputNumber precision={0} suffix="min" data-testid="track-template-stops" />
            </Form.Item>
          </Space>
          <Space wrap size="large">
            <Form.Item name="colorByLimits" label={t('track.colorByLimits')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="isDefault" label={t('track.isDefault')} valuePropName="checked">
              <Switch data-testid="track-template-default" />
            </Form.Item>
          </Space>
          <Space>
            <Button type="primary" htmlType="submit" loading={submitting} data-testid="track-template-save">
              {t('action.save')}
            </Button>
            <Button onClick={() => setEditing(null)}>{t('track.back')}</Button>
          </Space>
        </Form>
      ) : (
        <DataList<TrackTemplate>
          rowKey="id"
          size="small"
          testId="track-templates"
          columns={columns}
          data={templates}
          pagination={false}
          emptyText={t('track.none')}
          actions={
            <Permitted route={LIST} action="add">
              <Button type="primary" onClick={() => edit(null)} data-testid="track-template-add">
                {t('track.add')}
              </Button>
            </Permitted>
          }
        />
      )}
    </Modal>
  );
}
