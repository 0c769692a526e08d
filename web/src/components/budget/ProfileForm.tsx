import { Button, Form, Input, InputNumber, Modal, Space } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { saveProfile, type StabilityProfile, type StabilityProfileInput } from '@/api/budget';
import { rangeRules } from '@/components/ui/rangeRules';
import { showServerErrors } from '@/lib/serverErrors';

const NEW_PROFILE: Partial<StabilityProfileInput> = { alertPercent: 80, bands: [{ low: 8, high: 25, hours: 72 }] };

/** The values a profile's form starts from: the profile as read (only the fields the form edits), or a new one's. */
export function profileFormValues(profile: StabilityProfile | null): Partial<StabilityProfileInput> {
  if (!profile) return NEW_PROFILE;
  return {
    name: profile.name,
    rangeLow: profile.rangeLow,
    rangeHigh: profile.rangeHigh,
    mktLimit: profile.mktLimit ?? null,
    alertPercent: profile.alertPercent,
    bands: (profile.bands ?? []).map((band) => ({ low: band.low ?? null, high: band.high ?? null, hours: band.hours })),
  };
}

/**
 * Add or change a stability profile: name, the labelled range, MKT limit, alert threshold and the band
 * table (each band outside the range with its allowed hours). One form for the profiles page and the
 * waybill budget tab's "New profile".
 */
export function ProfileForm({
  profile = null,
  open,
  onClose,
  onSaved,
}: {
  profile?: StabilityProfile | null;
  open: boolean;
  onClose: () => void;
  onSaved: (saved: StabilityProfile) => void;
}) {
  const { t } = useTranslation('budget');
  const [form] = Form.useForm<StabilityProfileInput>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const saved = await saveProfile(profile?.id ? { ...values, id: profile.id } : values);
      form.resetFields();
      onSaved(saved);
    } catch (error) {
      if (!showServerErrors(form, error)) throw error;
    } finally {
      setSaving(false);
    }
  };
  const degrees = rangeRules(t, -273.15, 1000);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      title={profile ? t('editProfile') : t('newProfile')}
      okButtonProps={{ 'data-testid': 'budget-profile-save' } as Record<string, string>}
      destroyOnHidden
      width="min(720px, 100vw)"
    >
      <Form form={form} layout="vertical" initialValues={profileFormValues(profile)} data-testid="budget-profile-form">
        <Form.Item name="name" label={t('profileName')} rules={[{ required: true, max: 50 }]}>
          <Input maxLength={50} data-testid="budget-profile-name" />
        </Form.Item>
        <Space wrap>
          <Form.Item name="rangeLow" label={t('rangeLow')} rules={[{ required: true }, ...degrees]}>
            <InputNumber data-testid="budget-range-low" />
          </Form.Item>
          <Form.Item name="rangeHigh" label={t('rangeHigh')} rules={[{ required: true }, ...degrees]}>
            <InputNumber data-testid="budget-range-high" />
          </Form.Item>
          <Form.Item name="mktLimit" label={t('mktLimit')} rules={degrees}>
            <InputNumber />
          </Form.Item>
          <Form.Item name="alertPercent" label={t('alertPercent')} rules={rangeRules(t, 1, 100)}>
            <InputNumber />
          </Form.Item>
        </Space>
        <Form.List name="bands">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" data-testid="budget-bands-editor">
              {fields.map((field, index) => (
                <Space key={field.key} wrap data-testid={`budget-band-${index}`}>
                  <Form.Item name={[field.name, 'low']} label={t('low')} rules={degrees}>
                    <InputNumber data-testid={`budget-band-${index}-low`} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'high']} label={t('high')} rules={degrees}>
                    <InputNumber data-testid={`budget-band-${index}-high`} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'hours']}
                    label={t('hours')}
                    rules={[{ required: true }, ...rangeRules(t, 0, 100000)]}
                  >
                    <InputNumber data-testid={`budget-band-${index}-hours`} />
                  </Form.Item>
                  <Button onClick={() => remove(field.name)}>{t('removeBand')}</Button>
                </Space>
              ))}
              <Button onClick={() => add({ low: null, high: null, hours: 0 })} data-testid="budget-band-add">
                {t('addBand')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
