import { Button, Descriptions, Form, Input, Modal, Skeleton, Tag, Upload } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { siteSealKey, uploadSiteSeal, type CustomPage, type SiteSeal } from '@/api/customization';
import { showServerErrors } from '@/lib/serverErrors';
import { formatTime } from '@/lib/format';
import { useRead } from '@/hooks/useRead';

interface SealForm {
  certificate?: string;
  privateKey?: string;
  keyPassword?: string;
}

/** A file as base64 (the PKCS#12 bundle travels in the JSON body). */
function base64Of(file: File): Promise<string> {
  return file.arrayBuffer().then((buffer) => {
    let binary = '';
    new Uint8Array(buffer).forEach((byte) => {
      binary += String.fromCharCode(byte);
    });
    return window.btoa(binary);
  });
}

/**
 * The site's seal (docs/seals.md): which certificate seals its signed PDFs, and the upload of the
 * site's own certificate (PEM or PKCS#12). The api checks it and names the refused field; the key is
 * never shown again.
 */
export function SiteSealDialog({ page, onClose }: { page: CustomPage | null; onClose: () => void }) {
  const { t } = useTranslation('customization');
  const [form] = Form.useForm<SealForm>();
  const [saving, setSaving] = useState(false);
  const [p12, setP12] = useState<{ name: string; base64: string } | null>(null);
  const { data, isLoading, mutate } = useRead<SiteSeal>(page ? siteSealKey(page.id) : null);
  const submit = async (values: SealForm) => {
    if (!page) return;
    setSaving(true);
    try {
      await mutate(await uploadSiteSeal({ platformId: page.id, ...values, pkcs12: p12?.base64 }), {
        revalidate: false,
      });
      form.resetFields();
      setP12(null);
    } catch (error) {
      showServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={Boolean(page)}
      title={t('seal.title', { name: page?.enterpriseName ?? '' })}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {isLoading ? <Skeleton active /> : null}
      {data ? (
        <Descriptions column={1} size="small" bordered data-testid="site-seal">
          <Descriptions.Item label={t('seal.subject')}>{data.subject}</Descriptions.Item>
          <Descriptions.Item label={t('seal.issuer')}>{data.issuer}</Descriptions.Item>
          <Descriptions.Item
            label={t('seal.validity')}
          >{`${formatTime(data.notBefore)} ~ ${formatTime(data.notAfter)}`}</Descriptions.Item>
          <Descriptions.Item label={t('seal.origin')}>
            <Tag color={data.origin === 'uploaded' ? 'blue' : undefined}>{t(`seal.${data.origin}`)}</Tag>
          </Descriptions.Item>
        </Descriptions>
      ) : null}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} style={{ marginTop: 16 }}>
        <Form.Item name="certificate" label={t('seal.certificate')} extra={t('seal.certificateHint')}>
          <Input.TextArea rows={4} spellCheck={false} />
        </Form.Item>
        <Form.Item name="privateKey" label={t('seal.privateKey')}>
          <Input.TextArea rows={4} spellCheck={false} autoComplete="off" />
        </Form.Item>
        <Form.Item label={t('seal.pkcs12')} extra={p12?.name}>
          <Upload
            accept=".p12,.pfx"
            maxCount={1}
            showUploadList={false}
            beforeUpload={(file) => {
              void base64Of(file).then((base64) => setP12({ name: file.name, base64 }));
              return false;
            }}
          >
            <Button>{t('seal.choosePkcs12')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item name="keyPassword" label={t('seal.keyPassword')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="site-seal-upload">
          {t('seal.upload')}
        </Button>
      </Form>
    </Modal>
  );
}
