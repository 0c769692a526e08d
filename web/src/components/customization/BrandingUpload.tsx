import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Space, Upload } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { uploadBranding, type UploadField } from '@/api/customization';

/** Spec section 5: images JPG, JPEG, PNG up to 2 MB; the browser icon ICO or PNG up to 1 MB. */
export const UPLOAD_RULES: Record<UploadField, { accept: string; maxBytes: number }> = {
  loginLogo: { accept: '.png,.jpg,.jpeg', maxBytes: 2 * 1024 * 1024 },
  indexLogo: { accept: '.png,.jpg,.jpeg', maxBytes: 2 * 1024 * 1024 },
  loginBackground: { accept: '.png,.jpg,.jpeg', maxBytes: 2 * 1024 * 1024 },
  browserLogo: { accept: '.ico,.png', maxBytes: 1024 * 1024 },
};

/** A form control holding the url of an uploaded image; the server checks the file by content. */
export function BrandingUpload({
  field,
  value,
  onChange,
  disabled,
}: {
  field: UploadField;
  value?: string | null;
  onChange?: (url: string | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('customization');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const rule = UPLOAD_RULES[field];
  return (
    <Space align="center" wrap data-testid={`${field}-field`}>
      {value ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={value}
          alt=""
          data-testid={`${field}-image`}
          style={{ height: 40, maxWidth: 120, objectFit: 'contain', border: '1px solid #eee' }}
        />
      ) : null}
      <Upload
        accept={rule.accept}
        showUploadList={false}
        disabled={disabled}
        beforeUpload={(file) => {
          if (file.size > rule.maxBytes) {
            void message.error(t('upload.tooLarge', { size: rule.maxBytes / 1024 / 1024 }));
            return Upload.LIST_IGNORE;
          }
          setBusy(true);
          uploadBranding(field, file)
            .then((answer) => onChange?.(answer.url))
            .catch(() => undefined)
            .finally(() => setBusy(false));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} disabled={disabled} data-testid={`${field}-upload`}>
          {t('upload.choose')}
        </Button>
      </Upload>
      {value ? (
        <Button type="link" size="small" onClick={() => onChange?.(null)} disabled={disabled}>
          {t('upload.remove')}
        </Button>
      ) : null}
    </Space>
  );
}
