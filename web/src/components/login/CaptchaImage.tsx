import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import type { Captcha } from '@/hooks/useCaptcha';

const Frame = styled.button`
  flex: none;
  width: 112px;
  height: 40px;
  padding: 0;
  overflow: hidden;
  cursor: pointer;
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textSecondary};
  background: ${({ theme }) => theme.colors.container};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;

  img {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: contain;
  }
`;

interface CaptchaImageProps {
  captcha?: Captcha;
  failed: boolean;
  onRefresh: () => void;
}

/** The image captcha; a click loads a new one. When it could not be loaded: "click to refresh". */
export function CaptchaImage({ captcha, failed, onRefresh }: CaptchaImageProps) {
  const { t } = useTranslation('login');
  return (
    <Frame type="button" onClick={onRefresh} title={t('captcha.alt')} aria-label={t('captcha.alt')}>
      {/* A blob URL made in the browser: next/image has nothing to optimise here. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      {captcha ? <img src={captcha.imageUrl} alt={t('captcha.alt')} /> : failed ? t('captcha.failed') : null}
    </Frame>
  );
}
