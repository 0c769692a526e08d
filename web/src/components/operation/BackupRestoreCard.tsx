import { App, Button, Card, Typography, Upload } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { restoreBackup, type RestoreResult } from '@/api/operation';

/** Restore one account's backup archive onto the chosen platform (the same as `flask backup restore`). */
export function BackupRestoreCard({ platformId }: { platformId: number | null }) {
  const { t } = useTranslation('operation');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<RestoreResult | null>(null);
  return (
    <Card title={t('restore.title')} size="small" style={{ marginTop: 16 }} data-testid="backup-restore">
      <Typography.Paragraph type="secondary">
        {t('restore.help')} <Typography.Text code>flask backup restore ARCHIVE</Typography.Text>
      </Typography.Paragraph>
      <Upload
        accept=".zip"
        showUploadList={false}
        beforeUpload={(file) => {
          setBusy(true);
          restoreBackup(file, platformId)
            .then((result) => {
              setDone(result);
              void message.success(t('restore.done', { ...result }));
            })
            .catch(() => undefined)
            .finally(() => setBusy(false));
          return false;
        }}
      >
        <Button loading={busy} data-testid="backup-restore-upload">
          {t('restore.upload')}
        </Button>
      </Upload>
      {done ? (
        <Typography.Paragraph style={{ marginTop: 8 }}>{t('restore.done', { ...done })}</Typography.Paragraph>
      ) : null}
    </Card>
  );
}
