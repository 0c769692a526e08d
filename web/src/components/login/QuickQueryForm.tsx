import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Input, Radio, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { SUBMIT_DEBOUNCE_MS } from '@/components/ui/constants';
import { useDebouncedCallback } from '@/hooks/useDebouncedCallback';
import { GUID_MAX_LENGTH, TRACKING_MAX_LENGTH, quickQueryTarget, type QuickQueryType } from './quickQuery';

interface QuickQueryValues {
  type: QuickQueryType;
  id: string;
}

/** Look up a device or a waybill without signing in; a complete ID is needed. */
export function QuickQueryForm() {
  const { t } = useTranslation('login');
  const router = useRouter();
  const [form] = Form.useForm<QuickQueryValues>();
  const type = Form.useWatch('type', form) ?? 'guid';

  const rules: Rule[] =
    type === 'guid'
      ? [
          { required: true, whitespace: true, message: t('quick.guidRequired') },
          { pattern: /^\d+$/, message: t('quick.guidDigits') },
          { max: GUID_MAX_LENGTH, message: t('quick.guidMax', { max: GUID_MAX_LENGTH }) },
        ]
      : [
          { required: true, whitespace: true, message: t('quick.trackingRequired') },
          { max: TRACKING_MAX_LENGTH, message: t('quick.trackingMax', { max: TRACKING_MAX_LENGTH }) },
        ];

  const submit = useDebouncedCallback((values: QuickQueryValues) => {
    void router.push(quickQueryTarget(values.type, values.id.trim()));
  }, SUBMIT_DEBOUNCE_MS);

  return (
    <Form<QuickQueryValues> form={form} size="large" initialValues={{ type: 'guid', id: '' }} onFinish={submit}>
      <Typography.Paragraph type="secondary">{t('quick.hint')}</Typography.Paragraph>
      <Form.Item name="type">
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          block
          options={[
            { value: 'guid', label: t('quick.guid') },
            { value: 'tracking', label: t('quick.tracking') },
          ]}
          onChange={() => form.setFields([{ name: 'id', errors: [] }])}
        />
      </Form.Item>
      <Form.Item name="id" rules={rules}>
        <Input
          prefix={<SearchOutlined />}
          placeholder={t(type === 'guid' ? 'quick.guidPlaceholder' : 'quick.trackingPlaceholder')}
          inputMode={type === 'guid' ? 'numeric' : 'text'}
          autoComplete="off"
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block>
          {t('quick.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
