import { Button, Input, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { COLOUR_PATTERN } from '@/lib/formRules';

export interface PreviewBranding {
  title: string;
  themeColor: string;
  loginLogo?: string | null;
  loginBackground?: string | null;
  loginPage?: string;
  recordCompany?: string | null;
  recordNumber?: string | null;
}

/** The login page with the draft branding, before it is saved (scaled-down, not interactive). */
export function LoginPreview({ branding }: { branding: PreviewBranding }) {
  const { t } = useTranslation('customization');
  const colour = COLOUR_PATTERN.test(branding.themeColor) ? branding.themeColor : '#ec6c00';
  const background = branding.loginBackground
    ? `center / cover no-repeat url("${branding.loginBackground}")`
    : `linear-gradient(135deg, ${colour}33, ${colour}99)`;
  const simple = branding.loginPage === 'simple';
  return (
    <div
      data-testid="login-preview"
      aria-label={t('preview.title')}
      style={{ border: '1px solid #d9d9d9', borderRadius: 6, overflow: 'hidden' }}
    >
      <div
        style={{
          background,
          minHeight: 260,
          display: 'flex',
          alignItems: 'center',
          justifyContent: simple ? 'center' : 'flex-end',
          padding: 16,
        }}
      >
        <div
          style={{
            background: 'rgba(255,255,255,0.94)',
            borderRadius: 6,
            padding: 16,
            width: 220,
            pointerEvents: 'none',
          }}
        >
          <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12 }}>
            {branding.loginLogo ? (
              // eslint-disable-next-line @next/next/no-img-element
              <img src={branding.loginLogo} alt="" style={{ height: 28, maxWidth: 80, objectFit: 'contain' }} />
            ) : null}
            <Typography.Text strong data-testid="preview-title" style={{ color: colour }}>
              {branding.title || '-'}
            </Typography.Text>
          </div>
          <Input size="small" placeholder={t('preview.user')} style={{ marginBottom: 8 }} />
          <Input size="small" placeholder={t('preview.password')} style={{ marginBottom: 12 }} />
          <Button
            size="small"
            block
            type="primary"
            style={{ background: colour, borderColor: colour }}
            data-testid="preview-button"
          >
            {t('preview.signIn')}
          </Button>
        </div>
      </div>
      {branding.recordCompany || branding.recordNumber ? (
        <div style={{ textAlign: 'center', fontSize: 12, padding: 4, color: '#666' }}>
          {branding.recordCompany} {branding.recordNumber}
        </div>
      ) : null}
    </div>
  );
}
