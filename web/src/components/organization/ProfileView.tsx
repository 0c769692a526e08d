import { App, Button, Card, Descriptions, Form, Radio, Select, Space } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import { updateInfo, type ProfileInput } from '@/api/organization';
import { showServerErrors } from '@/lib/serverErrors';
import { useSession } from '@/lib/SessionContext';
import { ChangePasswordDrawer } from '@/components/shell/ChangePasswordDrawer';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useTimeZones } from '@/hooks/useTimeZones';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';

/** /consumer/info: profile (real name max 20, company 2-50, time zone, C / F), password, bindings. */
export function ProfileView() {
  const { t } = useTranslation('organization');
  const { message } = App.useApp();
  const { info } = useSession();
  const [form] = Form.useForm<ProfileInput>();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const account = info?.baseAccount;
  const { options: zones } = useTimeZones(account?.timeZone);
  useEffect(() => {
    if (account)
      form.setFieldsValue({
        realName: account.realName,
        companyName: account.companyName,
        timeZone: account.timeZone,
        temperatureUnit: account.temperatureUnit as 'C' | 'F',
      });
  }, [account, form]);
  const save = async (values: ProfileInput) => {
    setSaving(true);
    try {
      await updateInfo({ ...values, companyName: values.companyName || null, realName: values.realName || null });
      void message.success(t('done'));
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };
  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: saveOnce } = useFormSubmit(null, save);
  if (!account) return null;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="consumer-info">
      <Card size="small" title={t('profile.account')}>
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('member.userName')}>{account.userName}</Descriptions.Item>
          <Descriptions.Item label={t('profile.accountType')}>
            {t(`profile.type.${account.accountType}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('member.phone')}>
            {account.phone ?? '-'} <Link href="/user/bind-phone">{t('profile.bind')}</Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('member.email')}>
            {account.email ?? '-'} <Link href="/user/bind-email">{t('profile.bind')}</Link>
          </Descriptions.Item>
        </Descriptions>
        <Button onClick={() => setPasswordOpen(true)}>{t('profile.changePassword')}</Button>
      </Card>
      <Card size="small" title={t('profile.title')}>
        <Form<ProfileInput> form={form} layout="vertical" onFinish={saveOnce} style={{ maxWidth: 480 }}>
          <Form.Item name="realName" label={t('member.realName')} rules={[{ max: 20, message: t('max', { max: 20 }) }]}>
            <SymbolFreeInput maxLength={20} />
          </Form.Item>
          <Form.Item
            name="companyName"
            label={t('profile.company')}
            rules={[{ min: 2, max: 50, message: t('length', { min: 2, max: 50 }) }]}
          >
            <SymbolFreeInput maxLength={50} />
          </Form.Item>
          <Form.Item name="timeZone" label={t('profile.timeZone')} rules={[{ required: true, message: t('required') }]}>
            <Select showSearch optionFilterProp="label" options={zones} />
          </Form.Item>
          <Form.Item name="temperatureUnit" label={t('profile.temperatureUnit')}>
            <Radio.Group
              options={[
                { value: 'C', label: '°C' },
                { value: 'F', label: '°F' },
              ]}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
            {t('save')}
          </Button>
        </Form>
      </Card>
      <ChangePasswordDrawer open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Space>
  );
}
