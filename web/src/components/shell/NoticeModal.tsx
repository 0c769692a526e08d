import { Checkbox, Modal } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import { noticeQueryFor, queryNoticeKey, type Notice } from '@/api/notice';
import { useSiteBranding } from '@/lib/SiteContext';
import { useRead } from '@/hooks/useRead';
import { dismissNotice, isNoticeDismissed } from '@/utils/noticeStore';

const Content = styled.div`
  max-height: 60vh;
  overflow: auto;
  line-height: 1.7;
  word-break: break-word;

  img {
    max-width: 100%;
    height: auto;
  }
`;

/**
 * The notice modal (spec 2.3): after sign-in the site's notices (queryNotice) are shown one after
 * the other as rich text; "don't remind again" hides a notice for this account from then on.
 */
export function NoticeModal({
  accountId,
  ready = true,
  onSettled,
}: {
  accountId: number;
  /** False while something else covers the page (the phone's menu drawer): one thing at a time. */
  ready?: boolean;
  /** Called once no notice is left to show (none, all read, or the read failed): the next modal may open. */
  onSettled?: () => void;
}) {
  const { t } = useTranslation('shell');
  const branding = useSiteBranding();
  const query = noticeQueryFor(branding?.defaultCamp);
  // The account is not part of the request: signing in clears the cache; only "don't remind again" is per account.
  const { data, error } = useRead<Notice[]>(queryNoticeKey(query), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
  });
  const [seen, setSeen] = useState<number[]>([]);
  const [quiet, setQuiet] = useState(false);
  const notice = useMemo(
    () => (data ?? []).find((item) => !seen.includes(item.noticeId) && !isNoticeDismissed(accountId, item.noticeId)),
    [data, seen, accountId],
  );
  const settled = !notice && (data !== undefined || error !== undefined);
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);
  if (!notice || !ready) return null;

  const close = () => {
    if (quiet) dismissNotice(accountId, notice.noticeId);
    setQuiet(false);
    setSeen((list) => [...list, notice.noticeId]);
  };

  return (
    <Modal
      open
      title={notice.noticeTitle || t('notice.title')}
      onOk={close}
      onCancel={close}
      okText={t('notice.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      width={640}
      footer={(_, { OkBtn }) => (
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Checkbox checked={quiet} onChange={(event) => setQuiet(event.target.checked)} data-testid="notice-quiet">
            {t('notice.dontRemind')}
          </Checkbox>
          <OkBtn />
        </div>
      )}
    >
      {/* Sanitised by the api with nh3 when the notice was saved (no scripts, no handlers). */}
      <Content data-testid="notice-content" dangerouslySetInnerHTML={{ __html: notice.noticeContent }} />
    </Modal>
  );
}
