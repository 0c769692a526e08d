import { Form, Modal, Radio } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { processMessages, RESULT_MAX, RESULT_STATES, type ResultState } from '@/api/alarm';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';

interface ProcessModalProps {
  ids: number[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** Batch processing of alarm messages: agreed, rejected or on hold, with a result (max 50). */
export function ProcessModal({ ids, open, onClose, onDone }: ProcessModalProps) {
  const { t } = useTranslation('alarm');
  const [form] = Form.useForm<{ processState: ResultState; result?: string }>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await processMessages(ids, values.processState, values.result?.trim());
      form.resetFields();
      onDone();
    } catch {
      // The request client showed the error.
    } finally {
      setSaving(false);
    }
  };

  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open={open}
      title={t('process.title', { count: ids.length })}
      okText={t('process.submit')}
      cancelText={t('process.cancel')}
      onOk={() => submitOnce(undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'process-submit' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" initialValues={{ processState: 'agreed' }} data-testid="process-form">
        <Form.Item name="processState" label={t('process.state')} rules={[{ required: true }]}>
          <Radio.Group options={RESULT_STATES.map((state) => ({ value: state, label: t(`state.${state}`) }))} />
        </Form.Item>
        <Form.Item
          name="result"
          label={t('process.result')}
          rules={[{ max: RESULT_MAX, message: t('process.resultMax', { max: RESULT_MAX }) }]}
        >
          <SymbolFreeInput textarea rows={3} maxLength={RESULT_MAX} data-testid="process-result" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
