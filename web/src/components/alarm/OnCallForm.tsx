import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Select, Space, type ButtonProps } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { ApiError } from '@/api/errors';
import { onCallPeopleKey, saveOnCall, type OnCallPerson, type OnCallSchedule } from '@/api/oncall';
import type { OrganizationNode } from '@/api/organization';
import { useOrganizationTree, useStorageChoices } from '@/hooks/resources';
import { useRead } from '@/hooks/useRead';
import { useTimeZones } from '@/hooks/useTimeZones';
import { fieldPath, formValues, saveBody, WEEKDAYS, type OnCallFormValues } from './onCall';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const BOUND = /^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d)?$/;

function flatten(nodes: OrganizationNode[] = []): OrganizationNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

/** A person of a rota entry or an override: a user of the account, or a contact's name, phone and email. */
function PersonFields({ path, testId }: { path: (string | number)[]; testId: string }) {
  const { t } = useTranslation('alarm');
  const people = useRead<OnCallPerson[]>(onCallPeopleKey()).data ?? [];
  const form = Form.useFormInstance();
  const type = Form.useWatch([...path, 'type'], form) as string | undefined;
  return (
    <Space wrap align="start">
      <Form.Item name={[...path, 'type']} initialValue="contact" noStyle>
        <Select
          style={{ width: 110 }}
          options={[
            { value: 'account', label: t('oncall.user') },
            { value: 'contact', label: t('oncall.contact') },
          ]}
          data-testid={`${testId}-type`}
        />
      </Form.Item>
      {type === 'account' ? (
        <Form.Item name={[...path, 'accountId']} rules={[{ required: true, message: t('oncall.userRequired') }]}>
          <Select
            style={{ width: 220 }}
            placeholder={t('oncall.user')}
            options={people.map((p) => ({ value: p.accountId, label: `${p.name} · ${p.phone || p.email}` }))}
            data-testid={`${testId}-account`}
          />
        </Form.Item>
      ) : (
        <>
          <Form.Item name={[...path, 'name']} rules={[{ required: true, max: 50, message: t('push.nameRequired') }]}>
            <Input placeholder={t('push.name')} style={{ width: 120 }} data-testid={`${testId}-name`} />
          </Form.Item>
          <Form.Item name={[...path, 'phone']}>
            <Input placeholder={t('push.phone')} style={{ width: 140 }} data-testid={`${testId}-phone`} />
          </Form.Item>
          <Form.Item name={[...path, 'email']} rules={[{ type: 'email', message: t('push.emailInvalid') }]}>
            <Input placeholder={t('push.email')} style={{ width: 180 }} data-testid={`${testId}-email`} />
          </Form.Item>
        </>
      )}
    </Space>
  );
}

/** Add or change a schedule: name, zone, scope, the weekly rota (weekday, hand-over time, person) and overrides. */
export function OnCallForm({
  schedule,
  open,
  onClose,
  onSaved,
}: {
  schedule: OnCallSchedule | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('alarm');
  const [form] = Form.useForm<OnCallFormValues>();
  const [saving, setSaving] = useState(false);
  const zones = useTimeZones(schedule?.timeZone);
  const scope = Form.useWatch('scope', form);
  const organizations = flatten(useOrganizationTree().data);
  const storages = useStorageChoices('storage', open).data?.list ?? [];
  const submit = async (values: OnCallFormValues) => {
    setSaving(true);
    try {
      await saveOnCall(saveBody(values, schedule?.id));
      onSaved();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.failure.fieldErrors)
        form.setFields(
          Object.entries(error.failure.fieldErrors).map(([field, errors]) => ({
            name: fieldPath(field),
            errors,
          })) as Parameters<typeof form.setFields>[0],
        );
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      width={860}
      title={schedule ? t('oncall.edit') : t('oncall.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'oncall-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form<OnCallFormValues>
        form={form}
        layout="vertical"
        initialValues={formValues(schedule)}
        onFinish={submit}
        data-testid="oncall-form"
      >
        <Space wrap align="start">
          <Form.Item
            name="name"
            label={t('oncall.name')}
            rules={[{ required: true, max: 50, message: t('oncall.nameRequired') }]}
          >
            <Input style={{ width: 220 }} data-testid="oncall-name" />
          </Form.Item>
          <Form.Item name="timeZone" label={t('oncall.timeZone')} rules={[{ required: true }]}>
            <Select
              showSearch
              optionFilterProp="label"
              style={{ width: 300 }}
              loading={zones.loading}
              options={zones.options}
              data-testid="oncall-timeZone"
            />
          </Form.Item>
          <Form.Item name="scope" label={t('oncall.scope')}>
            <Select
              style={{ width: 160 }}
              options={(['site', 'organization', 'storage'] as const).map((s) => ({
                value: s,
                label: t(`oncall.scopes.${s}`),
              }))}
              data-testid="oncall-scope"
            />
          </Form.Item>
          {scope === 'organization' ? (
            <Form.Item name="organizationId" label={t('oncall.scopes.organization')} rules={[{ required: true }]}>
              <Select style={{ width: 200 }} options={organizations.map((o) => ({ value: o.id, label: o.name }))} />
            </Form.Item>
          ) : null}
          {scope === 'storage' ? (
            <Form.Item name="storageId" label={t('oncall.scopes.storage')} rules={[{ required: true }]}>
              <Select style={{ width: 200 }} options={storages.map((s) => ({ value: s.id, label: s.storageName }))} />
            </Form.Item>
          ) : null}
        </Space>
        <h4>{t('oncall.rota')}</h4>
        <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t('oncall.rotaHint')}</p>
        <Form.List name="rota">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row) => (
                <Space key={row.key} wrap align="start" data-testid={`oncall-rota-${row.name}`}>
                  <Form.Item name={[row.name, 'weekday']} rules={[{ required: true }]}>
                    <Select
                      style={{ width: 110 }}
                      options={WEEKDAYS.map((d) => ({ value: d, label: t(`oncall.weekdays.${d}`) }))}
                      data-testid={`oncall-rota-${row.name}-weekday`}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[row.name, 'time']}
                    rules={[{ required: true, pattern: HHMM, message: t('oncall.timeInvalid') }]}
                  >
                    <Input placeholder="HH:MM" style={{ width: 80 }} data-testid={`oncall-rota-${row.name}-time`} />
                  </Form.Item>
                  <PersonFields path={[row.name, 'person']} testId={`oncall-rota-${row.name}`} />
                  <MinusCircleOutlined onClick={() => remove(row.name)} aria-label={t('oncall.remove')} />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ weekday: 1, time: '08:00', person: { type: 'contact' } })}
                data-testid="oncall-rota-add"
              >
                {t('oncall.addHandOver')}
              </Button>
            </>
          )}
        </Form.List>
        <h4 style={{ marginTop: 16 }}>{t('oncall.overrides')}</h4>
        <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t('oncall.overridesHint')}</p>
        <Form.List name="overrides">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row) => (
                <Space key={row.key} wrap align="start" data-testid={`oncall-override-${row.name}`}>
                  {(['start', 'end'] as const).map((bound) => (
                    <Form.Item
                      key={bound}
                      name={[row.name, bound]}
                      rules={[{ required: true, pattern: BOUND, message: t('oncall.boundInvalid') }]}
                    >
                      <Input
                        placeholder={t(`oncall.${bound}`)}
                        style={{ width: 160 }}
                        data-testid={`oncall-override-${row.name}-${bound}`}
                      />
                    </Form.Item>
                  ))}
                  <PersonFields path={[row.name, 'person']} testId={`oncall-override-${row.name}`} />
                  <MinusCircleOutlined onClick={() => remove(row.name)} aria-label={t('oncall.remove')} />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ person: { type: 'contact' } })}
                data-testid="oncall-override-add"
              >
                {t('oncall.addOverride')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
