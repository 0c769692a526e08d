import { Form, Input, Select } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { Rule } from 'antd/es/form';
import { onCallPageKey, type OnCallSchedule } from '@/api/oncall';
import type { Page } from '@/components/ui/table';
import { useRead } from '@/hooks/useRead';
import { useSession } from '@/lib/SessionContext';
import { hasPermission } from '@/routes/permissions';

/** The account's schedules for the push form's "person on call" entries (read only when they may be seen). */
function useSchedules() {
  const { granted } = useSession();
  const allowed = hasPermission(granted, 'alarm.oncall.query');
  const { data } = useRead<Page<OnCallSchedule>>(allowed ? onCallPageKey({ start: 1, pageSize: 200 }) : null);
  return data?.list ?? [];
}

/** One recipient of a level: a contact (name, phone, email, language) or the person on call of a schedule
 * (a named one, or the device's by scope: its storage's, else its organization's, else the site's). */
export function RecipientFields({
  field,
  path,
  testId,
  contactRules,
}: {
  field: number;
  path: (string | number)[];
  testId: string;
  contactRules: Rule[];
}) {
  const { t } = useTranslation('alarm');
  const schedules = useSchedules();
  const form = Form.useFormInstance();
  const kind = (Form.useWatch([...path, 'kind'], form) as string | undefined) ?? 'contact';
  return (
    <>
      <Form.Item name={[field, 'kind']} initialValue="contact">
        <Select
          style={{ width: 130 }}
          options={[
            { value: 'contact', label: t('oncall.contact') },
            { value: 'onCall', label: t('oncall.onCallEntry') },
          ]}
          data-testid={`recipient-kind-${testId}`}
        />
      </Form.Item>
      {kind === 'onCall' ? (
        <Form.Item name={[field, 'scheduleId']} tooltip={t('oncall.onCallHint')}>
          <Select
            style={{ width: 260 }}
            allowClear
            placeholder={t('oncall.byScope')}
            options={schedules.map((s) => ({ value: s.id, label: s.name }))}
            data-testid={`recipient-schedule-${testId}`}
          />
        </Form.Item>
      ) : (
        <>
          <Form.Item
            name={[field, 'name']}
            rules={[{ required: true, whitespace: true, message: t('push.nameRequired') }, { max: 50 }]}
          >
            <Input placeholder={t('push.name')} maxLength={50} data-testid={`recipient-name-${testId}`} />
          </Form.Item>
          <Form.Item name={[field, 'phone']} rules={contactRules} dependencies={[[...path, 'email']]}>
            <Input placeholder={t('push.phone')} data-testid={`recipient-phone-${testId}`} />
          </Form.Item>
          <Form.Item name={[field, 'email']} rules={[{ type: 'email', message: t('push.emailInvalid') }]}>
            <Input placeholder={t('push.email')} data-testid={`recipient-email-${testId}`} />
          </Form.Item>
        </>
      )}
    </>
  );
}
