import { MailOutlined, MobileOutlined } from '@ant-design/icons';
import { Form, Input, Segmented, type FormInstance } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { CodeChannel, CodePurpose } from '@/api/account';
import { emailRules, phoneRules } from '@/lib/formRules';
import { SendCodeField } from './SendCodeField';

interface ContactFieldsProps {
  form: FormInstance;
  channel: CodeChannel;
  onChannelChange?: (channel: CodeChannel) => void;
  purpose: CodePurpose;
}

/** Phone or email (with a switch when both are allowed) and the code sent to it. */
export function ContactFields({ form, channel, onChannelChange, purpose }: ContactFieldsProps) {
  const { t } = useTranslation('account');
  return (
    <>
      {onChannelChange ? (
        <Form.Item>
          <Segmented<CodeChannel>
            block
            value={channel}
            onChange={(value) => {
              form.setFields([{ name: 'code', value: '', errors: [] }]);
              onChannelChange(value);
            }}
            options={[
              { value: 'phone', label: t('contact.byPhone'), icon: <MobileOutlined /> },
              { value: 'email', label: t('contact.byEmail'), icon: <MailOutlined /> },
            ]}
          />
        </Form.Item>
      ) : null}
      {channel === 'phone' ? (
        <Form.Item name="phone" rules={phoneRules(t)}>
          <Input
            prefix={<MobileOutlined />}
            placeholder={t('contact.phone')}
            autoComplete="tel"
            inputMode="tel"
            maxLength={20}
          />
        </Form.Item>
      ) : (
        <Form.Item name="email" rules={emailRules(t)}>
          <Input
            prefix={<MailOutlined />}
            placeholder={t('contact.email')}
            autoComplete="email"
            inputMode="email"
            maxLength={254}
          />
        </Form.Item>
      )}
      <SendCodeField form={form} targetField={channel} channel={channel} purpose={purpose} />
    </>
  );
}
